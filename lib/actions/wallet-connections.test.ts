// Connecting, rotating and removing wallets against the real sandbox: a key is proven before it is requested,
// a second admin approves, the browser gets only its last four characters, and the audit log never holds it.
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
  user: null as null | {
    id: string;
    email: string;
    name: string;
    role: string;
    mustChangePassword: boolean;
    sessionId?: string;
  },
}));

vi.mock('@/lib/server/auth', () => ({ auth: async () => (state.user ? { user: state.user } : null) }));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const { createUser } = await import('@/lib/server/users');
const { startSession } = await import('@/lib/server/sessions');
const { connectSandboxWallets, createCustodyConnections } = await import('@/lib/server/wallets');
const { connectWalletAction, removeWalletAction, rotateWalletKeyAction } = await import(
  './wallet-connections'
);
const { getApprovalEngine } = await import('@/lib/server/approvals');

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
      env: {
        CUSTODY_READ_BUDGET_MS: 8000,
        CUSTODY_WRITE_TIMEOUT_MS: 15000,
        UNKNOWN_OUTCOME_WINDOW_MS: 600_000,
      },
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
  // Configuration changes ask for a second factor proved within five minutes: this session just did.
  const session = await startSession(t.db, { userId: created.user.id, stepUpAt: Date.now() });
  state.user = { ...created.user, mustChangePassword: false, sessionId: session.id };
  adminEmail = created.user.email;
  const second = await createUser(t.db, {
    email: 'wallet-admin2@example.com',
    name: 'Admin 2',
    role: 'admin',
  });
  if (!second.ok) throw new Error(second.error);
  secondAdmin = { id: second.user.id, email: second.user.email, role: 'admin' };
});

let secondAdmin: { id: string; email: string; role: string };

/** The second admin approves the request an action filed; it is carried out at once. */
async function approved(result: { ok: boolean; data?: unknown }) {
  expect(result).toMatchObject({ ok: true, data: { kind: 'requested' } });
  const { id } = result.data as { id: string };
  expect(await (await getApprovalEngine()).approve(secondAdmin, id)).toEqual({
    ok: true,
    data: { status: 'SUCCESS' },
  });
}

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
    expect(await stored(wallet.id)).toBeDefined();
    await approved(removed);
    expect(await stored(wallet.id)).toBeUndefined();
    expect(await removeWalletAction({ walletId: wallet.id })).toEqual({
      ok: false,
      error: 'This wallet is no longer connected.',
    });

    const connected = await connectWalletAction({ walletId: wallet.id, apiKey: ` ${wallet.apiKey} ` });
    expect(JSON.stringify(connected)).not.toContain(wallet.apiKey);
    await approved(connected);
    expect((await stored(wallet.id))?.apiKeyLast4).toBe(wallet.apiKey.slice(-4));
    expect((await stored(wallet.id))?.apiKeySealed).not.toContain(wallet.apiKey);

    const again = await connectWalletAction({ walletId: wallet.id, apiKey: wallet.apiKey });
    expect(again).toMatchObject({
      ok: false,
      fieldErrors: { walletId: 'This wallet is already connected. Rotate its key instead.' },
    });

    const rotated = await rotateWalletKeyAction({ walletId: wallet.id, apiKey: wallet.apiKey });
    await approved(rotated);
    expect((await stored(wallet.id))?.previousApiKeySealed).not.toBeNull();

    // The changes are carried out on approval, in the console's name on the requester's behalf.
    const log = (await t.db.select().from(auditLog)).filter((e) => e.target === wallet.id);
    expect(log.map((e) => [e.action, e.outcome, e.target])).toEqual([
      ['wallet.remove', 'success', wallet.id],
      ['wallet.connect', 'success', wallet.id],
      ['wallet.rotate_key', 'success', wallet.id],
    ]);
    expect(log[1]?.input).toMatchObject({
      walletId: wallet.id,
      name: wallet.name,
      network: wallet.network,
      requestedBy: adminEmail,
    });
    expect(JSON.stringify(await t.db.select().from(auditLog))).not.toContain(wallet.apiKey);
  });
});
