import 'server-only';
import { asc, eq } from 'drizzle-orm';
import { cache } from 'react';
import { decryptSecret, encryptSecret } from '@/lib/crypto/aead';
import { type CustodyClient, createCustodyClient } from '@/lib/custody';
import { type ConsoleDb, type WalletConnectionRow, walletConnections } from '@/lib/db/schema';
import type { ConnectionOptions, ConsoleServices, CustodyConnections, CustodyEndpoint } from './services';
import { currentServices } from './services';
import { sharedReadsFor } from './upstream-reads';

/** How long a rotated-out key still verifies webhooks signed before the rotation reached the service. */
export const PREVIOUS_KEY_GRACE_MS = 24 * 60 * 60 * 1000;

type EndpointParts = Pick<ConsoleServices, 'config' | 'sandbox'>;
type ConnectionParts = Pick<ConsoleServices, 'config' | 'sandbox' | 'database'>;

/**
 * Where the custody client sends requests (the real service, or the sandbox in-process) and how long it
 * may wait: reads share one budget each, money-moving calls their own timeout. The fetch shares identical
 * reads in flight and keeps the wallet, its balances and lists briefly, under every client built from here.
 */
function custodyTransport(runtime: EndpointParts): CustodyEndpoint {
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

/** The upstream fetch itself, without the shared reads. */
function directFetch(runtime: EndpointParts): CustodyEndpoint['fetch'] {
  return runtime.sandbox ? runtime.sandbox.fetch : (input: string, init: RequestInit) => fetch(input, init);
}

/**
 * How long a wallet's usual client (its row read, its key opened, the client built) is reused by this process.
 * Changes made through this process take effect at once (`forgetWalletConnection`); a key rotated or a wallet
 * removed by another console instance on the same database, within this window.
 */
export const CONNECTION_TTL_MS = 5_000;

type KeptClients = Map<string, { at: number; client: Promise<CustodyClient | null> }>;
// Kept on globalThis: the modules that change connections and those that read them may be bundled apart.
const KEPT_CLIENTS = Symbol.for('custody-console.wallet-clients');
type ClientsHolder = { [KEPT_CLIENTS]?: Set<KeptClients> };
const clientsHolder = globalThis as ClientsHolder;
clientsHolder[KEPT_CLIENTS] ??= new Set();
const ALL_KEPT_CLIENTS = clientsHolder[KEPT_CLIENTS];

/** Drops every kept client of a wallet: its connection was added, changed or removed. */
export function forgetWalletConnection(walletId: string): void {
  for (const clients of ALL_KEPT_CLIENTS) clients.delete(walletId);
}

/** The console's custody connections: every client and transport to a wallet's service is built here. */
export function createCustodyConnections(runtime: ConnectionParts): CustodyConnections {
  const db = runtime.database.db;
  const kept: KeptClients = new Map();
  ALL_KEPT_CLIENTS.add(kept);
  async function connectionFor(walletId: string, options: ConnectionOptions = {}) {
    const row = await findWalletConnection(walletId, db);
    if (!row) return null;
    const { direct, ...limits } = options;
    return {
      ...custodyTransport(runtime),
      ...(direct ? { fetch: directFetch(runtime) } : {}),
      ...limits,
      apiKey: openApiKey(runtime, row.id, row.apiKeySealed),
    };
  }
  async function buildClient(walletId: string, options?: ConnectionOptions) {
    const connection = await connectionFor(walletId, options);
    return connection ? createCustodyClient(connection) : null;
  }
  return {
    connectionFor,
    clientFor(walletId, options) {
      if (options && Object.keys(options).length > 0) return buildClient(walletId, options);
      // The usual client is kept briefly: every page and route reads it, often several times per request.
      const now = Date.now();
      const hit = kept.get(walletId);
      if (hit && now >= hit.at && now - hit.at < CONNECTION_TTL_MS) return hit.client;
      const client = buildClient(walletId);
      const entry = { at: now, client };
      kept.set(walletId, entry);
      // An unknown wallet and a failed read are not kept: the next request asks again.
      const drop = () => {
        if (kept.get(walletId) === entry) kept.delete(walletId);
      };
      client.then((found) => found ?? drop(), drop);
      return client;
    },
    clientWithKey: (apiKey) => createCustodyClient({ ...custodyTransport(runtime), apiKey }),
  };
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
  const database = db ?? (await currentServices()).database.db;
  return database.select().from(walletConnections).orderBy(asc(walletConnections.name));
}

/**
 * The connected wallets as one render reads them: the console layout (its command palette) and a wallet's layout
 * (its header) share one query.
 */
export const walletConnectionsOfRender = cache(() => listWalletConnections());

/** A connected wallet's row from the render's list (undefined when the console does not know it). */
export async function walletConnectionOfRender(walletId: string): Promise<WalletConnectionRow | undefined> {
  return (await walletConnectionsOfRender()).find((row) => row.id === walletId);
}

export async function findWalletConnection(walletId: string, db?: ConsoleDb) {
  const database = db ?? (await currentServices()).database.db;
  const [row] = await database
    .select()
    .from(walletConnections)
    .where(eq(walletConnections.id, walletId))
    .limit(1);
  return row;
}

type KeyParts = Pick<ConsoleServices, 'config'>;

export function sealApiKey(runtime: KeyParts, walletId: string, apiKey: string): string {
  return encryptSecret(apiKey, runtime.config.encryptionKey, `wallet:${walletId}`);
}

export function openApiKey(runtime: KeyParts, walletId: string, sealed: string): string {
  return decryptSecret(sealed, runtime.config.encryptionKey, `wallet:${walletId}`);
}

/** A custody client for a given key (used to verify a key before it is stored). */
export async function custodyClientWithKey(apiKey: string): Promise<CustodyClient> {
  return (await currentServices()).custody.clientWithKey(apiKey);
}

/** The custody client of a connected wallet, or null when the console does not know the wallet. */
export async function custodyFor(walletId: string): Promise<CustodyClient | null> {
  return (await currentServices()).custody.clientFor(walletId);
}

/** Keys that may sign this wallet's webhooks now: the current one and, for a while after a rotation, the previous. */
export async function webhookKeysFor(walletId: string, now = new Date()): Promise<string[]> {
  const runtime = await currentServices();
  const row = await findWalletConnection(walletId, runtime.database.db);
  if (!row) return [];
  const keys = [openApiKey(runtime, row.id, row.apiKeySealed)];
  if (row.previousApiKeySealed && row.previousKeyValidUntil && row.previousKeyValidUntil > now) {
    keys.push(openApiKey(runtime, row.id, row.previousApiKeySealed));
  }
  return keys;
}

/**
 * Sandbox mode: every sandbox wallet is connected on first start. Returns the connected wallets' ids, whose
 * extensions the runtime then probes in the background (the sandbox may now run with the spec's endpoints only).
 */
export async function connectSandboxWallets(runtime: ConnectionParts): Promise<string[]> {
  if (!runtime.sandbox) return [];
  const db = runtime.database.db;
  const existing = await db.select({ id: walletConnections.id }).from(walletConnections);
  if (existing.length > 0) return existing.map((r) => r.id);
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
  return (await listWalletConnections(db)).map((r) => r.id);
}
