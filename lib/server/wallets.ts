import 'server-only';
import { asc, eq } from 'drizzle-orm';
import { decryptSecret, encryptSecret } from '@/lib/crypto/aead';
import { type CustodyClient, createCustodyClient, type FetchLike } from '@/lib/custody';
import { type ConsoleDb, type WalletConnectionRow, walletConnections } from '@/lib/db/schema';
import { getDb, getRuntime, type Runtime } from './runtime';
import { sharedReadsFor } from './upstream-reads';

/** How long a rotated-out key still verifies webhooks signed before the rotation reached the service. */
export const PREVIOUS_KEY_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Where the custody client sends requests (the real service, or the sandbox in-process) and how long it
 * may wait: reads share one budget each, money-moving calls their own timeout. The fetch shares identical
 * reads in flight and keeps the wallet, its balances and lists briefly, under every client built from here.
 */
export function custodyTransport(runtime: Runtime): {
  baseUrl: string;
  fetch: FetchLike;
  budgetMs: number;
  timeoutMs: number;
} {
  const { env } = runtime.config;
  const limits = { budgetMs: env.CUSTODY_READ_BUDGET_MS, timeoutMs: env.CUSTODY_WRITE_TIMEOUT_MS };
  if (runtime.sandbox) {
    return {
      baseUrl: 'http://sandbox.internal/sandbox',
      fetch: sharedReadsFor(runtime.sandbox.fetch).fetch,
      ...limits,
    };
  }
  return { baseUrl: env.CUSTODY_API_URL!, fetch: sharedReadsFor(globalThis.fetch).fetch, ...limits };
}

/** A wallet as the browser may see it: never the key, only its last four characters. */
export interface WalletSummary {
  id: string;
  name: string;
  blockchain: string;
  network: string;
  address: string;
  apiKeyLast4: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export function toSummary(row: WalletConnectionRow): WalletSummary {
  return {
    id: row.id,
    name: row.name,
    blockchain: row.blockchain,
    network: row.network,
    address: row.address,
    apiKeyLast4: row.apiKeyLast4,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listWalletConnections(db?: ConsoleDb): Promise<WalletConnectionRow[]> {
  return (db ?? (await getDb())).select().from(walletConnections).orderBy(asc(walletConnections.name));
}

export async function findWalletConnection(walletId: string, db?: ConsoleDb) {
  const [row] = await (db ?? (await getDb()))
    .select()
    .from(walletConnections)
    .where(eq(walletConnections.id, walletId))
    .limit(1);
  return row;
}

export function sealApiKey(runtime: Runtime, walletId: string, apiKey: string): string {
  return encryptSecret(apiKey, runtime.config.encryptionKey, `wallet:${walletId}`);
}

export function openApiKey(runtime: Runtime, walletId: string, sealed: string): string {
  return decryptSecret(sealed, runtime.config.encryptionKey, `wallet:${walletId}`);
}

/** A custody client for a given key (used to verify a key before it is stored). */
export async function custodyClientWithKey(apiKey: string): Promise<CustodyClient> {
  const runtime = await getRuntime();
  return createCustodyClient({ ...custodyTransport(runtime), apiKey });
}

/** The custody client of a connected wallet, or null when the console does not know the wallet. */
export async function custodyFor(walletId: string): Promise<CustodyClient | null> {
  const runtime = await getRuntime();
  const row = await findWalletConnection(walletId, runtime.database.db as ConsoleDb);
  if (!row) return null;
  return createCustodyClient({
    ...custodyTransport(runtime),
    apiKey: openApiKey(runtime, row.id, row.apiKeySealed),
  });
}

/** Keys that may sign this wallet's webhooks now: the current one and, for a while after a rotation, the previous. */
export async function webhookKeysFor(walletId: string, now = new Date()): Promise<string[]> {
  const runtime = await getRuntime();
  const row = await findWalletConnection(walletId, runtime.database.db as ConsoleDb);
  if (!row) return [];
  const keys = [openApiKey(runtime, row.id, row.apiKeySealed)];
  if (row.previousApiKeySealed && row.previousKeyValidUntil && row.previousKeyValidUntil > now) {
    keys.push(openApiKey(runtime, row.id, row.previousApiKeySealed));
  }
  return keys;
}

/**
 * Sandbox mode: every sandbox wallet is connected on first start. Each start probes the connected wallets'
 * extensions in the background (the sandbox may now run with the spec's endpoints only).
 */
export async function connectSandboxWallets(runtime: Runtime): Promise<void> {
  if (!runtime.sandbox) return;
  const db = runtime.database.db as ConsoleDb;
  const existing = await db.select({ id: walletConnections.id }).from(walletConnections);
  if (existing.length === 0) {
    const credentials = await runtime.sandbox.credentials();
    const rows = credentials.wallets.map((w) => ({
      id: w.id,
      name: w.name,
      blockchain: w.blockchain,
      network: w.network,
      address: w.address,
      apiKeySealed: sealApiKey(runtime, w.id, w.apiKey),
      apiKeyLast4: w.apiKey.slice(-4),
      createdBy: 'sandbox',
    }));
    if (rows.length) await db.insert(walletConnections).values(rows).onConflictDoNothing();
  }
  const ids =
    existing.length > 0 ? existing.map((r) => r.id) : (await listWalletConnections(db)).map((r) => r.id);
  const { probeCapabilities } = await import('./capabilities');
  // Not awaited: start-up does not wait for the probes; a page that needs one before it ends joins it.
  void Promise.all(ids.map((id) => probeCapabilities(id, runtime)));
}
