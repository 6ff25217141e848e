// Revealing an address's private key and simulating a deposit, against the real sandbox and database: one admin
// asks, a second approves, the asker re-enters the password and sees the key once; every attempt is audited
// without the key, and a deposit lands on the address.
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
const { requestPrivateKeyRevealAction, revealPrivateKeyAction, simulateDepositAction } = await import(
  './addresses'
);
const { getApprovalEngine } = await import('@/lib/server/approvals');
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
  return {
    id: created.user.id,
    email: created.user.email,
    password: created.oneTimePassword,
    as: { ...state.user },
  };
}

/** The signed-in admin asks to see the key of `addressId`; a second admin (nobody's account) approves. */
async function approvedReveal(addressId: string, walletId = wallet.id) {
  const asker = state.user!;
  const asked = await requestPrivateKeyRevealAction({ walletId, addressId });
  if (!asked.ok) throw new Error(asked.error);
  const second = await createUser(t.db, {
    email: `second-${crypto.randomUUID()}@example.com`,
    name: 'second',
    role: 'admin',
  });
  if (!second.ok) throw new Error(second.error);
  const engine = await getApprovalEngine();
  const approved = await engine.approve(
    { id: second.user.id, email: second.user.email, role: 'admin' },
    asked.data.id,
  );
  expect(approved).toMatchObject({ ok: true, data: { status: 'SUCCESS' } });
  state.user = asker;
  return asked.data.id;
}

const entriesOf = (email: string) => t.db.select().from(auditLog).where(eq(auditLog.actorEmail, email));

describe('reveal private key', () => {
  it('needs a second admin’s approval of this admin’s request, for this address, before anything is read', async () => {
    const address = wallet.addresses.find((a) => a.name === 'Customer 001')!;
    const other = wallet.addresses.find((a) => a.name === 'Customer 002')!;
    const admin = await signedInAs('admin');
    const input = { walletId: wallet.id, addressId: address.id, password: admin.password };
    // No request at all, or one nobody approved yet.
    expect(await revealPrivateKeyAction({ ...input, requestId: crypto.randomUUID() })).toMatchObject({
      ok: false,
      error: 'No approved request to show this key.',
    });
    const asked = await requestPrivateKeyRevealAction({ walletId: wallet.id, addressId: address.id });
    if (!asked.ok) throw new Error(asked.error);
    expect(await revealPrivateKeyAction({ ...input, requestId: asked.data.id })).toMatchObject({
      ok: false,
      error: 'No approved request to show this key.',
    });
    // The asker cannot approve their own request.
    const engine = await getApprovalEngine();
    const own = await engine.approve({ id: admin.id, email: admin.email, role: 'admin' }, asked.data.id);
    expect(own.ok).toBe(false);
    // Approved for another address: refused for this one. Another admin cannot use this admin's approval.
    const forOther = await approvedReveal(other.id);
    expect(await revealPrivateKeyAction({ ...input, requestId: forOther })).toMatchObject({
      ok: false,
      error: 'That request was approved for another address.',
    });
    const mine = await approvedReveal(address.id);
    const stranger = await signedInAs('admin');
    expect(
      await revealPrivateKeyAction({ ...input, password: stranger.password, requestId: mine }),
    ).toMatchObject({ ok: false, error: 'Only the admin who asked for this key sees it.' });
    const denied = (await entriesOf(stranger.email)).filter((e) => e.action === 'privateKey.reveal');
    expect(denied.map((e) => e.outcome)).toContain('denied');
  });

  it('lets the asker see the key only within 15 minutes of the approval', async () => {
    const address = wallet.addresses.find((a) => a.name === 'Customer 001')!;
    const admin = await signedInAs('admin');
    const requestId = await approvedReveal(address.id);
    const { createApprovalEngine } = await import('@/lib/server/approvals/engine');
    const at = (minutes: number) =>
      createApprovalEngine({
        db: t.db,
        connectionFor: async () => null,
        now: () => new Date(Date.now() + minutes * 60_000),
      });
    const target = { walletId: wallet.id, addressId: address.id };
    const actor = { id: admin.id, email: admin.email, role: 'admin' };
    expect(await at(16).takePrivateKeyReveal(actor, requestId, target)).toMatchObject({
      ok: false,
      error: 'The time to see this private key has passed. Ask again if it is needed.',
    });
    // Within the time it is taken once; given back (the service returned no key), it waits again.
    expect(await at(14).takePrivateKeyReveal(actor, requestId, target)).toEqual({ ok: true, data: null });
    expect(await at(14).takePrivateKeyReveal(actor, requestId, target)).toMatchObject({ ok: false });
    await at(14).giveBackPrivateKeyReveal(requestId);
    expect(await at(14).takePrivateKeyReveal(actor, requestId, target)).toEqual({ ok: true, data: null });
  });

  it('asks for the password again, reveals the key once, and audits every attempt without it', async () => {
    const address = wallet.addresses.find((a) => a.name === 'Customer 001');
    if (!address) throw new Error('the seed has Customer 001');
    const admin = await signedInAs('admin');
    const requestId = await approvedReveal(address.id);
    const input = { walletId: wallet.id, addressId: address.id, requestId };

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
    // Once: the same approval shows nothing again.
    expect(await revealPrivateKeyAction({ ...input, password: admin.password })).toMatchObject({
      ok: false,
      error: 'The private key was shown once. Ask again if it is needed.',
    });

    const all = await entriesOf(admin.email);
    // Each attempt past the input check used the session's fresh second factor (step-up), audited with it.
    expect(all.filter((e) => e.action === 'auth.step_up_used').map((e) => e.target)).toEqual([
      `address:${address.id}`,
      `address:${address.id}`,
      `address:${address.id}`,
      `address:${address.id}`,
    ]);
    const entries = all.filter((e) => e.action.startsWith('privateKey.reveal'));
    expect(entries.map((e) => [e.action, e.outcome, e.target, e.input])).toEqual([
      ['privateKey.reveal', 'invalid', null, { fields: ['password'] }],
      ['privateKey.reveal', 'failed', `address:${address.id}`, { ...input, reason: 'wrong password' }],
      ['privateKey.reveal', 'success', `address:${address.id}`, input],
      [
        'privateKey.reveal',
        'failed',
        `address:${address.id}`,
        { ...input, reason: 'The private key was shown once. Ask again if it is needed.' },
      ],
    ]);
    expect(JSON.stringify(entries)).not.toContain(key.slice(2));
  });

  it('says so when the service holds no key to reveal', async () => {
    const address = wallet.addresses.find((a) => a.name === 'Customer 002');
    if (!address) throw new Error('the seed has Customer 002');
    const admin = await signedInAs('admin');
    const requestId = await approvedReveal(address.id);
    const input = { walletId: wallet.id, addressId: address.id, password: admin.password, requestId };
    const result = await revealPrivateKeyAction(input);
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('returned no private key') });
    const [entry] = (await entriesOf(admin.email)).filter((e) => e.action === 'privateKey.reveal');
    expect(entry?.input).toMatchObject({ reason: 'no key returned' });
    // Nothing was shown: the approval still waits (the same answer again, not "shown once").
    expect(await revealPrivateKeyAction(input)).toMatchObject({
      ok: false,
      error: expect.stringContaining('returned no private key'),
    });
  });

  it('refuses a viewer and audits the denial against the address', async () => {
    const address = wallet.addresses[0]!;
    const viewer = await signedInAs('viewer');
    expect(await requestPrivateKeyRevealAction({ walletId: wallet.id, addressId: address.id })).toMatchObject(
      {
        ok: false,
        status: 403,
      },
    );
    const result = await revealPrivateKeyAction({
      walletId: wallet.id,
      addressId: address.id,
      password: viewer.password,
      requestId: crypto.randomUUID(),
    });
    expect(result).toEqual({ ok: false, error: 'You do not have permission to do this.', status: 403 });
    const entries = await entriesOf(viewer.email);
    expect(entries.map((e) => [e.action, e.outcome, e.target])).toContainEqual([
      'privateKey.reveal',
      'denied',
      `address:${address.id}`,
    ]);
  });

  it('refuses an external address, whose key the service does not hold, and files no request', async () => {
    const external = wallet.addresses.find((a) => a.type === 'EXTERNAL');
    if (!external) throw new Error('the seed whitelists external addresses');
    const admin = await signedInAs('admin');
    const result = await requestPrivateKeyRevealAction({ walletId: wallet.id, addressId: external.id });
    expect(result).toMatchObject({
      ok: false,
      status: 422,
      error: expect.stringContaining('external address: the custody service does not hold its private key'),
    });
    // The engine audits every request it files; nothing was filed for this admin.
    const filed = async () =>
      (await entriesOf(admin.email)).filter((e) => e.outcome === 'success' && !e.action.startsWith('auth.'));
    expect(await filed()).toEqual([]);
    // An internal address of the same wallet is still asked for.
    const internal = wallet.addresses.find((a) => a.type === 'INTERNAL')!;
    const asked = await requestPrivateKeyRevealAction({ walletId: wallet.id, addressId: internal.id });
    if (!asked.ok) throw new Error(asked.error);
    expect((await filed()).map((e) => e.target)).toEqual([asked.data.id]);
  });

  it('refuses a wallet the console does not hold', async () => {
    await signedInAs('admin');
    const result = await requestPrivateKeyRevealAction({
      walletId: 'not-connected',
      addressId: wallet.addresses[0]!.id,
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
