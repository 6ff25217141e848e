// Connecting, rotating and removing wallets against the real sandbox: a key is proven before it is stored,
// the browser gets only its last four characters, and the audit log never holds it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, walletConnections } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { type ConsoleServices, provideServices } from '@/lib/server/services';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { testSandboxOptions } from '@/test/sandbox';

const state = vi.hoisted(() => ({
  user: null as null | { id: string; email: string; name: string; role: string; mustChangePassword: boolean },
}));

vi.mock('@/lib/server/auth', () => ({ auth: async () => (state.user ? { user: state.user } : null) }));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const { createUser } = await import('@/lib/server/users');
const { connectSandboxWallets, createCustodyConnections } = await import('@/lib/server/wallets');
const { connectWalletAction, removeWalletAction, rotateWalletKeyAction } = await import(
  './wallet-connections'
);

const dataDir = mkdtempSync(path.join(tmpdir(), 'wallet-actions-'));
let t: TestDatabase;
let sandbox: Sandbox;
let wallet: SandboxCredentials['wallets'][number];
let adminEmail: string;

beforeAll(async () => {
  t = await createTestDatabase();
  sandbox = await createSandbox(testSandboxOptions(t.handle, dataDir));
  const base = {
    config: {
      encryptionKey: Buffer.alloc(32, 9),
      sandboxMode: true,
      env: { CUSTODY_READ_BUDGET_MS: 8000, CUSTODY_WRITE_TIMEOUT_MS: 15000 },
    },
    database: t.handle,
    sandbox,
  } as unknown as ConsoleServices;
  const services = { ...base, custody: createCustodyConnections(base) };
  provideServices(services);
  await connectSandboxWallets(services);
  [wallet] = (await sandbox.credentials()).wallets as [SandboxCredentials['wallets'][number]];
  const created = await createUser(t.db, { email: 'wallet-admin@example.com', name: 'Admin', role: 'admin' });
  if (!created.ok) throw new Error(created.error);
  state.user = { ...created.user, mustChangePassword: false };
  adminEmail = created.user.email;
});

afterAll(async () => {
  provideServices(undefined);
  await sandbox.stop();
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const stored = async (walletId: string) =>
  (await t.db.select().from(walletConnections).where(eq(walletConnections.id, walletId)))[0];
const entries = () => t.db.select().from(auditLog).where(eq(auditLog.actorEmail, adminEmail));

describe('wallet connection actions', () => {
  it('refuses a key the service refuses, naming the status, and stores nothing', async () => {
    const unknownId = crypto.randomUUID();
    const result = await connectWalletAction({ walletId: unknownId, apiKey: 'sbx_not_a_real_key_1234' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatch(/^The custody service refused this key for this wallet \(401\): /);
    expect(result.fieldErrors).toEqual({ apiKey: result.error });
    expect(await stored(unknownId)).toBeUndefined();
    const [entry] = (await entries()).filter((e) => e.target === unknownId);
    expect([entry?.action, entry?.outcome, entry?.input]).toEqual([
      'wallet.connect',
      'failed',
      { walletId: unknownId },
    ]);
  });

  it('removes a wallet and connects it again with its key; only the last four characters come back', async () => {
    const removed = await removeWalletAction({ walletId: wallet.id });
    expect(removed).toEqual({ ok: true, data: { id: wallet.id, name: wallet.name } });
    expect(await stored(wallet.id)).toBeUndefined();
    expect(await removeWalletAction({ walletId: wallet.id })).toEqual({
      ok: false,
      error: 'This wallet is no longer connected.',
    });

    const connected = await connectWalletAction({ walletId: wallet.id, apiKey: ` ${wallet.apiKey} ` });
    expect(connected).toMatchObject({
      ok: true,
      data: { id: wallet.id, apiKeyLast4: wallet.apiKey.slice(-4) },
    });
    expect(JSON.stringify(connected)).not.toContain(wallet.apiKey);
    expect((await stored(wallet.id))?.apiKeySealed).not.toContain(wallet.apiKey);

    const again = await connectWalletAction({ walletId: wallet.id, apiKey: wallet.apiKey });
    expect(again).toMatchObject({
      ok: false,
      fieldErrors: { walletId: 'This wallet is already connected. Rotate its key instead.' },
    });

    const rotated = await rotateWalletKeyAction({ walletId: wallet.id, apiKey: wallet.apiKey });
    expect(rotated).toMatchObject({ ok: true, data: { apiKeyLast4: wallet.apiKey.slice(-4) } });

    const log = (await entries()).filter((e) => e.target === wallet.id);
    expect(log.map((e) => [e.action, e.outcome, e.target])).toEqual([
      ['wallet.remove', 'success', wallet.id],
      ['wallet.remove', 'failed', wallet.id],
      ['wallet.connect', 'success', wallet.id],
      ['wallet.rotate_key', 'success', wallet.id],
    ]);
    expect(log[2]?.input).toEqual({ walletId: wallet.id, name: wallet.name, network: wallet.network });
    expect(JSON.stringify(log)).not.toContain(wallet.apiKey);
  });
});
