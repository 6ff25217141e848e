// Revealing an address's private key and simulating a deposit, against the real sandbox and database: the
// password is checked again, every attempt is audited without the key, and a deposit lands on the address.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, type Role } from '@/lib/db/schema';
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
const { connectSandboxWallets, createCustodyConnections } = await import('@/lib/server/wallets');
const { revealPrivateKeyAction, simulateDepositAction } = await import('./addresses');
const { WALLET_NOT_CONNECTED } = await import('./define-action');

const dataDir = mkdtempSync(path.join(tmpdir(), 'address-actions-'));
let t: TestDatabase;
let sandbox: Sandbox;
let wallet: SandboxCredentials['wallets'][number];

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
});

afterAll(async () => {
  provideServices(undefined);
  await sandbox.stop();
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Signs a new user of the role in; their one-time password is their password. */
async function signedInAs(role: Role) {
  const created = await createUser(t.db, {
    email: `${role}-${crypto.randomUUID()}@example.com`,
    name: role,
    role,
  });
  if (!created.ok) throw new Error(created.error);
  // Signed in with a second factor just now: revealing a key needs no step-up for five minutes.
  const { startSession } = await import('@/lib/server/sessions');
  const session = await startSession(t.db, { userId: created.user.id, stepUpAt: Date.now() });
  state.user = { ...created.user, mustChangePassword: false, sessionId: session.id };
  return { email: created.user.email, password: created.oneTimePassword };
}

const entriesOf = (email: string) => t.db.select().from(auditLog).where(eq(auditLog.actorEmail, email));

describe('reveal private key', () => {
  it('asks for the password again, reveals the key once, and audits every attempt without it', async () => {
    const address = wallet.addresses.find((a) => a.name === 'Customer 001');
    if (!address) throw new Error('the seed has Customer 001');
    const admin = await signedInAs('admin');
    const input = { walletId: wallet.id, addressId: address.id };

    expect(await revealPrivateKeyAction({ ...input, password: '' })).toMatchObject({
      ok: false,
      fieldErrors: { password: 'Enter your password' },
    });
    expect(await revealPrivateKeyAction({ ...input, password: 'not-my-password' })).toEqual({
      ok: false,
      error: 'That password is not right.',
      fieldErrors: { password: 'That password is not right.' },
    });
    const revealed = await revealPrivateKeyAction({ ...input, password: admin.password });
    expect(revealed.ok).toBe(true);
    if (!revealed.ok) return;
    const key = revealed.data.privateKey as `0x${string}`;
    expect(privateKeyToAccount(key).address.toLowerCase()).toBe(address.address.toLowerCase());

    const all = await entriesOf(admin.email);
    // Each attempt past the input check used the session's fresh second factor (step-up), audited with it.
    expect(all.filter((e) => e.action === 'auth.step_up_used').map((e) => e.target)).toEqual([
      `address:${address.id}`,
      `address:${address.id}`,
    ]);
    const entries = all.filter((e) => e.action !== 'auth.step_up_used');
    expect(entries.map((e) => [e.action, e.outcome, e.target, e.input])).toEqual([
      ['privateKey.reveal', 'invalid', null, { fields: ['password'] }],
      ['privateKey.reveal', 'failed', `address:${address.id}`, { ...input, reason: 'wrong password' }],
      ['privateKey.reveal', 'success', `address:${address.id}`, input],
    ]);
    expect(JSON.stringify(entries)).not.toContain(key.slice(2));
  });

  it('says so when the service holds no key to reveal', async () => {
    const address = wallet.addresses.find((a) => a.name === 'Customer 002');
    if (!address) throw new Error('the seed has Customer 002');
    const admin = await signedInAs('admin');
    const result = await revealPrivateKeyAction({
      walletId: wallet.id,
      addressId: address.id,
      password: admin.password,
    });
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('returned no private key') });
    const [entry] = (await entriesOf(admin.email)).filter((e) => e.action === 'privateKey.reveal');
    expect(entry?.input).toMatchObject({ reason: 'no key returned' });
  });

  it('refuses a viewer and audits the denial against the address', async () => {
    const address = wallet.addresses[0]!;
    const viewer = await signedInAs('viewer');
    const result = await revealPrivateKeyAction({
      walletId: wallet.id,
      addressId: address.id,
      password: viewer.password,
    });
    expect(result).toEqual({ ok: false, error: 'You do not have permission to do this.', status: 403 });
    const entries = await entriesOf(viewer.email);
    expect(entries.map((e) => [e.action, e.outcome, e.target])).toEqual([
      ['privateKey.reveal', 'denied', `address:${address.id}`],
    ]);
  });

  it('refuses a wallet the console does not hold', async () => {
    const admin = await signedInAs('admin');
    const result = await revealPrivateKeyAction({
      walletId: 'not-connected',
      addressId: wallet.addresses[0]!.id,
      password: admin.password,
    });
    expect(result).toEqual({ ok: false, error: WALLET_NOT_CONNECTED, status: 404 });
  });
});

describe('simulate deposit', () => {
  it('records a deposit to the address and audits it against the transaction', async () => {
    const address = wallet.addresses[0]!;
    const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
    const finance = await signedInAs('finance');
    const input = { walletId: wallet.id, addressId: address.id, assetId: usdc.id, amount: '12.5' };

    expect(await simulateDepositAction({ ...input, amount: '1e5' })).toMatchObject({
      ok: false,
      fieldErrors: { amount: 'Enter a positive decimal amount, e.g. 25 or 0.5' },
    });
    const result = await simulateDepositAction(input);
    expect(result).toMatchObject({ ok: true, data: { amount: '12.5', symbol: 'USDC', status: 'PENDING' } });
    if (!result.ok) return;
    const entries = await entriesOf(finance.email);
    expect(entries.map((e) => [e.action, e.outcome, e.target, e.input])).toEqual([
      ['sandbox.deposit', 'invalid', 'sandbox', { fields: ['amount'] }],
      ['sandbox.deposit', 'success', `transaction:${result.data.transactionId}`, input],
    ]);
  });

  it('passes on the sandbox refusing an unknown asset, audited as failed', async () => {
    const address = wallet.addresses[0]!;
    const finance = await signedInAs('finance');
    const result = await simulateDepositAction({
      walletId: wallet.id,
      addressId: address.id,
      assetId: 'no-such-asset',
      amount: '1',
    });
    expect(result.ok).toBe(false);
    const entries = await entriesOf(finance.email);
    expect(entries.map((e) => [e.action, e.outcome, e.target])).toEqual([
      ['sandbox.deposit', 'failed', `address:${address.id}`],
    ]);
  });
});
