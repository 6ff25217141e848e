// The destination policy ("money goes only to address-book entries past their cooling-off") through the approval
// engine against the embedded sandbox, with the engine's clock moved by the test: a typed never-seen address is
// refused for a withdrawal, a payout file row, a payout schedule (at request and at its run), a console-API
// withdrawal and a settlement rule's destination; whitelisting or a beneficiary alone does not count; an entry in
// its cooling-off is refused; a request whose entry changed after it was made is refused at its final approval
// (the approval not recorded) and at submission (nothing sent); turning the policy off is a request another admin
// approves, after which a typed address is paid with a warning. The same holds for the recipient and the spender of
// a decoded contract call (written or signed), the recipient of a retried withdrawal (learnt from the service; an
// unknown one is refused) and the active rules' destinations when a wallet's auto-settlement is switched on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { type AbiFunction, erc20Abi, getAddress, parseAbi } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DESTINATION_POLICY_OFF_WARNING } from '@/lib/approvals/address-book';
import { CONSOLE_SCOPE } from '@/lib/approvals/configuration';
import type { TransportOptions } from '@/lib/custody';
import { addressBookEntries, operationRequests, payoutScheduleRuns, payoutSchedules } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import type { WithdrawalPayload } from '@/lib/validation/withdrawals';
import { addTestUser, createTestDatabase, type TestDatabase } from '@/test/db';
import { testSandboxOptions } from '@/test/sandbox';
import { addressBookPolicyOf } from '../address-book';
import { runDueSchedules } from '../payout-schedules';
import { createApprovalEngine, type EngineActor } from './engine';
import { referenceFor } from './hash';

// The console API's routes run as in the server: no person's session, the runtime is the test's services.
vi.mock('@/lib/server/auth', () => ({ auth: async () => null }));
vi.mock('@/lib/server/runtime', async () => {
  const { currentServices, currentDb } = await import('../services');
  return { getRuntime: currentServices, getDb: currentDb };
});

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

const dataDir = mkdtempSync(path.join(tmpdir(), 'destination-policy-'));
let database: TestDatabase;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let wallet: SandboxCredentials['wallets'][number];
let usdc: { id: string; decimals: number; symbol: string };
let admin: EngineActor;
let admin2: EngineActor;
let finance: EngineActor;
let finance2: EngineActor;

/**
 * The engine's clock: the test moves it to age address book entries. It starts a month back, so what the engine
 * aged is aged for the checks that read the real time too (the form's and the API's).
 */
let clock = new Date(Date.now() - 30 * DAY);
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

/** Every money-moving call the engine makes upstream (#12, #13, #14, #1 retry, #16, #17), by URL. */
const upstreamMoneyCalls: string[] = [];
const MONEY_MOVING = /\/(withdraw(\/sign)?|transactions\/retry|contracts\/write(\/sign)?)$/;

function connectionFor(walletId: string): Promise<TransportOptions | null> {
  const w = creds.wallets.find((x) => x.id === walletId);
  if (!w) return Promise.resolve(null);
  return Promise.resolve({
    baseUrl: 'http://sandbox.internal/sandbox',
    apiKey: w.apiKey,
    timeoutMs: 5_000,
    retries: 0,
    fetch: (url: string, init: RequestInit) => {
      if (init.method === 'POST' && MONEY_MOVING.test(url)) upstreamMoneyCalls.push(url);
      return sandbox.fetch(url, init);
    },
  });
}

const engine = () => createApprovalEngine({ db: database.db, connectionFor, now: () => clock });

/** A never-seen address, as someone would type it. */
function typedAddress(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return `0x${Buffer.from(bytes).toString('hex')}`;
}

const payTo = (...addresses: string[]): WithdrawalPayload => ({
  source: { kind: 'master' },
  items: addresses.map((address) => ({
    assetId: usdc.id,
    symbol: usdc.symbol,
    decimals: usdc.decimals,
    address,
    amount: '0.25',
  })),
});

const payoutOf = (...addresses: string[]) => ({
  source: { kind: 'master' },
  fileName: 'payroll.csv',
  items: addresses.map((address, i) => ({
    line: i + 2,
    assetId: usdc.id,
    symbol: usdc.symbol,
    decimals: usdc.decimals,
    address,
    amount: '0.01',
  })),
});

const scheduleOf = (name: string, ...addresses: string[]) => ({
  walletId: wallet.id,
  name,
  cadence: 'daily',
  dayOfWeek: null,
  dayOfMonth: null,
  timeOfDay: '09:00',
  startsOn: clock.toISOString().slice(0, 10),
  payout: payoutOf(...addresses),
});

/** One admin asks, the other approves; the console carries the change out at once. */
async function throughQuorum(kind: string, payload: Record<string, unknown>) {
  const e = engine();
  const created = await e.create(admin, kind, CONSOLE_SCOPE, payload);
  if (!created.ok) throw new Error(created.error);
  const approved = await e.approve(admin2, created.data.id);
  if (!approved.ok) throw new Error(approved.error);
  expect(approved.data.status).toBe('SUCCESS');
}

const entryRow = { chain: 'ethereum', tags: [], notes: '' };

/** Adds an entry to the wallet's book through a second admin; its cooling-off starts now (the engine's clock). */
const addEntry = (name: string, address: string) =>
  throughQuorum('addressBookSave', { walletId: wallet.id, entries: [{ name, address, ...entryRow }] });

/** Moves the entry of `from` to another address: `from` leaves the book. */
async function moveEntry(from: string, to: string) {
  const [entry] = await database.db
    .select()
    .from(addressBookEntries)
    .where(eq(addressBookEntries.addressKey, from.toLowerCase()));
  await throughQuorum('addressBookSave', {
    walletId: wallet.id,
    entries: [{ id: entry!.id, name: entry!.name, address: to, ...entryRow }],
  });
}

const requestCount = async () =>
  Number((await database.db.select({ n: count() }).from(operationRequests))[0]?.n ?? 0);

async function upstreamByReference(reference: string) {
  const res = await sandbox.handle(
    new Request(
      `http://sandbox.internal/sandbox/v1/wallets/${wallet.id}/transactions?reference=${reference}`,
      { headers: { 'x-api-key': wallet.apiKey } },
    ),
  );
  return ((await res.json()) as { data: unknown[] }).data;
}

/** The sandbox's own lists: an address it whitelisted, one of its beneficiaries, and a child address id. */
async function serviceAddresses() {
  const whitelisted = wallet.addresses.find((a) => a.type === 'EXTERNAL')!.address;
  const res = await sandbox.handle(
    new Request(`http://sandbox.internal/sandbox/v1/wallets/${wallet.id}/beneficiaries`, {
      headers: { 'x-api-key': wallet.apiKey },
    }),
  );
  const listed = ((await res.json()) as { data: Array<{ address: string }> }).data;
  const beneficiary = listed.find((b) => b.address.toLowerCase() !== whitelisted.toLowerCase())!.address;
  const child = wallet.addresses.find((a) => a.type !== 'EXTERNAL')!.id;
  return { whitelisted, beneficiary, child };
}

const settlementRule = (childId: string, destination: string, isActive = true) => ({
  addressId: childId,
  ruleId: null,
  rule: {
    name: 'Sweep USDC',
    isActive,
    order: 'RECOMMENDED',
    slippageTolerance: '-1',
    source: { assets: ['USDC'], blockchain: 'ethereum', minAmount: '10', maxAmount: '-1' },
    destination: { address: getAddress(destination), asset: 'USDC', blockchain: 'ethereum' },
  },
});

/** The entry everyone may be paid: in the book, past its cooling-off. */
const PAYEE = typedAddress();

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await createSandbox(testSandboxOptions(database.handle, dataDir, { seed: 'destination-policy' }));
  creds = await sandbox.credentials();
  wallet = creds.wallets[0]!;
  const asset = wallet.assets.find((a) => a.symbol === 'USDC')!;
  usdc = { id: asset.id, decimals: asset.decimals, symbol: asset.symbol };
  const runtime = {
    config: {
      encryptionKey: Buffer.alloc(32, 7),
      sandboxMode: true,
      origin: 'http://console.test',
      env: {
        UNKNOWN_OUTCOME_WINDOW_MS: 600_000,
        CUSTODY_READ_BUDGET_MS: 8000,
        CUSTODY_WRITE_TIMEOUT_MS: 15000,
        ALERT_FROM: 'alerts@example.com',
        ALERT_MAX_ATTEMPTS: 3,
      },
    },
    database: database.handle,
    sandbox,
  };
  const { connectSandboxWallets, createCustodyConnections } = await import('../wallets');
  const services = { ...runtime, custody: createCustodyConnections(runtime as never) };
  (await import('../services')).provideServices(services as never);
  await connectSandboxWallets(services as never);
  admin = await addTestUser(database.db, 'admin@example.com', 'admin');
  admin2 = await addTestUser(database.db, 'admin2@example.com', 'admin');
  finance = await addTestUser(database.db, 'finance@example.com', 'finance');
  finance2 = await addTestUser(database.db, 'finance2@example.com', 'finance');
  await addEntry('Payee', PAYEE);
  advance(25 * HOUR);
}, 120_000);

afterAll(async () => {
  (await import('../services')).provideServices(undefined);
  await sandbox?.stop();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const OUTSIDE = "is not in this wallet's address book";

describe('the destination policy', () => {
  it('is on by default: a typed never-seen address is refused for a withdrawal, a payout file row, a schedule and a settlement rule, and nothing is stored', async () => {
    expect(await addressBookPolicyOf(database.db)).toEqual({
      coolingOffSeconds: 24 * 60 * 60,
      destinationPolicy: true,
    });
    const typed = typedAddress();
    const e = engine();
    const before = await requestCount();

    const preview = await e.preview(finance, 'withdraw', wallet.id, payTo(typed));
    expect(preview).toMatchObject({ ok: false, status: 422 });
    if (!preview.ok) {
      expect(preview.error).toContain(`${typed} ${OUTSIDE}`);
      expect(preview.error).toContain('Nothing was requested.');
    }
    const withdrawal = await e.create(finance, 'withdraw', wallet.id, payTo(PAYEE, typed));
    expect(withdrawal.ok).toBe(false);
    if (!withdrawal.ok) expect(withdrawal.error).toMatch(new RegExp(`^Recipient 2: ${typed}`));
    const signOnly = await e.create(finance, 'withdrawSign', wallet.id, payTo(typed));
    expect(signOnly.ok).toBe(false);

    const payout = await e.create(finance, 'payout', wallet.id, payoutOf(PAYEE, typed, typedAddress()));
    expect(payout.ok).toBe(false);
    if (!payout.ok) {
      // The file's line 3 is the first refused; one more row has a problem like it.
      expect(payout.error).toMatch(new RegExp(`^Line 3: ${typed} ${OUTSIDE}`));
      expect(payout.error).toContain('1 more recipient has a problem like it.');
    }

    const schedule = await e.create(finance, 'payoutSchedule', wallet.id, scheduleOf('Rent', typed));
    expect(schedule.ok).toBe(false);
    if (!schedule.ok) expect(schedule.error).toContain(`${typed} ${OUTSIDE}`);

    const { child } = await serviceAddresses();
    const rule = await e.create(admin, 'settlementRule', wallet.id, settlementRule(child, typed));
    expect(rule.ok).toBe(false);
    if (!rule.ok) expect(rule.error.toLowerCase()).toContain(`${typed} ${OUTSIDE}`);
    // A rule switched off forwards nothing: switching one off is never refused.
    const off = await e.create(admin, 'settlementRule', wallet.id, settlementRule(child, typed, false));
    expect(off.ok).toBe(true);
    if (off.ok) await e.cancel(admin, off.data.id);

    expect(await requestCount()).toBe(before + (off.ok ? 1 : 0));
  });

  it('says so at the recipient’s field in the form’s and the payout file’s checks', async () => {
    const { checkWithdrawal } = await import('../request-payloads');
    const { checkPayoutRecipients } = await import('../payouts/recipients');
    const typed = typedAddress();
    const checked = await checkWithdrawal({
      walletId: wallet.id,
      kind: 'withdraw',
      source: 'master',
      rows: [PAYEE, typed].map((address) => ({
        address,
        amount: '0.01',
        assetId: usdc.id,
        reference: '',
        note: '',
        metadata: '',
      })),
    });
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(Object.keys(checked.fieldErrors ?? {})).toEqual(['rows.1.address']);
      expect(checked.fieldErrors?.['rows.1.address']).toContain(OUTSIDE);
    }
    const rows = await checkPayoutRecipients(
      wallet.id,
      'master',
      [
        { line: 2, address: PAYEE, amount: '0.01', asset: 'USDC', reference: '', label: '' },
        { line: 3, address: typed, amount: '0.01', asset: 'USDC', reference: '', label: '' },
      ],
      { balances: false },
    );
    expect(rows.kind).toBe('problems');
    if (rows.kind === 'problems') {
      expect(rows.rows.map((r) => r.line)).toEqual([3]);
      expect(rows.rows[0]!.problems.join(' ')).toContain(OUTSIDE);
    }
  });

  it('refuses a console API withdrawal to a typed address at its field, and makes no request', async () => {
    const { getApprovalEngine } = await import('./index');
    const routes = await import('../service-tokens/routes');
    const api = await getApprovalEngine();
    const requested = await api.create(admin, 'serviceTokenCreate', CONSOLE_SCOPE, {
      name: 'Payroll system',
      scopes: ['read', 'withdrawals:request'],
      walletIds: [wallet.id],
      dailyCapUsd: '100000',
      minApprovals: 2,
      allowedCidrs: [],
      rateLimitPerMinute: 600,
      webhookUrlSealed: null,
      webhookHint: null,
      expiresInDays: 1,
    });
    if (!requested.ok) throw new Error(requested.error);
    expect((await api.approve(admin2, requested.data.id)).ok).toBe(true);
    const taken = await api.takeTokenSecret(admin, requested.data.id);
    if (!taken.ok) throw new Error(taken.error);
    const before = await requestCount();
    const typed = typedAddress();
    const call = async (body: unknown) => {
      const response = await routes.requestWithdrawal(
        new Request(`http://console.test/api/v1/wallets/${wallet.id}/withdrawals`, {
          method: 'POST',
          headers: { authorization: `Bearer ${taken.data.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
        { params: Promise.resolve({ walletId: wallet.id }) },
      );
      return {
        status: response.status,
        body: (await response.json()) as {
          code: string;
          message: string;
          fieldErrors: Record<string, string>;
        },
      };
    };
    const single = await call({ assetId: usdc.id, address: typed, amount: '0.5' });
    expect(single.status).toBe(422);
    expect(single.body.code).toBe('invalid_body');
    // Named checksummed, as the request would have stored it.
    expect(single.body.fieldErrors.address).toContain(`${getAddress(typed)} ${OUTSIDE}`);
    const batch = await call({
      items: [
        { assetId: usdc.id, address: PAYEE, amount: '0.5' },
        { assetId: usdc.id, address: typed, amount: '0.5' },
      ],
    });
    expect(batch.status).toBe(422);
    expect(Object.keys(batch.body.fieldErrors)).toEqual(['items.1.address']);
    expect(await requestCount()).toBe(before);
  });

  it('does not count the service’s whitelist or beneficiaries: only the console’s book, once the entry has cooled off', async () => {
    const { whitelisted, beneficiary } = await serviceAddresses();
    const e = engine();
    for (const address of [whitelisted, beneficiary]) {
      const refused = await e.preview(finance, 'withdraw', wallet.id, payTo(address));
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.error).toContain(OUTSIDE);
        expect(refused.error).toContain(
          'A whitelisted address or a beneficiary counts once an admin adds it',
        );
      }
    }

    // In the book, the whitelisted address still waits for its cooling-off (the clock moves 23 hours, then 2).
    await addEntry('Exchange deposit', whitelisted);
    advance(23 * HOUR);
    const cooling = await e.preview(finance, 'withdraw', wallet.id, payTo(whitelisted));
    expect(cooling.ok).toBe(false);
    if (!cooling.ok) {
      expect(cooling.error).toContain('Exchange deposit');
      expect(cooling.error).toContain('can receive money from');
      expect(cooling.error).toContain('(in 1 hour)');
    }
    advance(2 * HOUR);
    const allowed = await e.preview(finance, 'withdraw', wallet.id, payTo(whitelisted));
    if (!allowed.ok) throw new Error(allowed.error);
    const review = allowed.data.review as {
      warnings: string[];
      items: Array<{ book: { name: string; source: string } | null }>;
    };
    expect(review.items[0]!.book).toMatchObject({ name: 'Exchange deposit', source: 'console' });
    expect(review.warnings).not.toContain(DESTINATION_POLICY_OFF_WARNING);
  });

  it('refuses the final approval of a request whose entry was changed and re-added since (cooling-off restarts); the approval is not recorded', async () => {
    const address = typedAddress();
    await addEntry('Rent', address);
    advance(25 * HOUR);
    const e = engine();
    const created = await e.create(finance, 'withdraw', wallet.id, payTo(address));
    if (!created.ok) throw new Error(created.error);

    // Meanwhile the entry moves elsewhere and the address comes back as a new entry: its cooling-off starts again.
    await moveEntry(address, typedAddress());
    await addEntry('Rent again', address);

    const calls = upstreamMoneyCalls.length;
    const approval = await e.approve(finance2, created.data.id);
    expect(approval).toMatchObject({ ok: false, status: 422 });
    if (!approval.ok) {
      expect(approval.error).toContain('Rent again');
      expect(approval.error).toContain('was added to the address book recently');
      expect(approval.error).toContain('The approval was not recorded.');
    }
    const view = await e.view(created.data.id);
    expect(view?.request.status).toBe('PENDING_APPROVAL');
    expect(view?.approvals).toHaveLength(0);
    expect(view?.events.map((ev) => ev.kind)).not.toContain('approved');
    expect(upstreamMoneyCalls.length).toBe(calls);

    // Removed from the book (moved away) counts as it is now too: outside the book.
    const other = typedAddress();
    await addEntry('Catering', other);
    advance(25 * HOUR);
    const second = await e.create(finance, 'payout', wallet.id, payoutOf(other));
    if (!second.ok) throw new Error(second.error);
    await moveEntry(other, typedAddress());
    const refused = await e.approve(finance2, second.data.id);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toMatch(new RegExp(`^Line 2: ${other} ${OUTSIDE}`));
    expect((await e.view(second.data.id))?.approvals).toHaveLength(0);
    expect(upstreamMoneyCalls.length).toBe(calls);
  });

  it('refuses at submission what the book no longer allows: SUBMIT_FAILED with the sentence, nothing sent upstream', async () => {
    const address = typedAddress();
    await addEntry('Hosting', address);
    advance(25 * HOUR);
    const e = engine();
    const created = await e.create(finance, 'withdraw', wallet.id, payTo(address));
    if (!created.ok) throw new Error(created.error);
    // The freeze holds the approved request; the entry changes before the freeze is lifted.
    await e.setFreeze(admin, true);
    try {
      expect(await e.approve(finance2, created.data.id)).toMatchObject({
        ok: true,
        data: { status: 'APPROVED' },
      });
      await moveEntry(address, typedAddress());
    } finally {
      const calls = upstreamMoneyCalls.length;
      await e.setFreeze(admin, false);
      expect(upstreamMoneyCalls.length).toBe(calls);
    }
    const view = await e.view(created.data.id);
    expect(view?.request.status).toBe('SUBMIT_FAILED');
    expect(view?.request.lastError).toContain(`${address} ${OUTSIDE}`);
    expect(view?.request.lastError).toContain('Nothing was sent.');
    expect(await upstreamByReference(referenceFor(created.data.id, 0))).toHaveLength(0);
  });

  it('refuses a schedule’s run whose entry changed since the schedule was approved: the run records why, nothing is requested', async () => {
    const address = typedAddress();
    await addEntry('Office rent', address);
    advance(25 * HOUR);
    const e = engine();
    const created = await e.create(finance, 'payoutSchedule', wallet.id, scheduleOf('Office rent', address));
    if (!created.ok) throw new Error(created.error);
    expect(await e.approve(finance2, created.data.id)).toMatchObject({
      ok: true,
      data: { status: 'SUCCESS' },
    });
    const [schedule] = await database.db
      .select()
      .from(payoutSchedules)
      .where(eq(payoutSchedules.approvedRequestId, created.data.id));
    await moveEntry(address, typedAddress());
    const before = await requestCount();
    const due = schedule!.nextRunAt!;
    clock = new Date(Math.max(clock.getTime(), due.getTime() + 60_000));
    // The run is taken and recorded, but makes no request.
    expect(await runDueSchedules({ db: database.db, engine: e, now: clock })).toBe(0);
    const [run] = await database.db
      .select()
      .from(payoutScheduleRuns)
      .where(eq(payoutScheduleRuns.scheduleId, schedule!.id));
    expect(run?.operationRequestId).toBeNull();
    expect(run?.error).toContain(`${address} ${OUTSIDE}`);
    expect(await requestCount()).toBe(before);
  });

  it('goes off only through a request another admin approves; then a typed address is paid with a warning, and a cooling-off still holds', async () => {
    const e = engine();
    const typed = typedAddress();
    const asked = await e.create(admin, 'coolingOffEdit', CONSOLE_SCOPE, {
      coolingOffSeconds: 24 * 60 * 60,
      destinationPolicy: false,
    });
    if (!asked.ok) throw new Error(asked.error);
    expect(asked.data.summary).toBe('Address book policy: destination policy on → off');
    const review = (await e.view(asked.data.id))?.request.review as {
      destinationPolicyBefore: boolean;
      destinationPolicyAfter: boolean;
      warnings: string[];
    };
    expect(review).toMatchObject({ destinationPolicyBefore: true, destinationPolicyAfter: false });
    expect(review.warnings.join(' ')).toContain('This loosens the rules');
    // Not by the admin who asked, not by finance: until another admin approves, the policy holds.
    expect((await e.approve(admin, asked.data.id)).ok).toBe(false);
    expect(await e.approve(finance, asked.data.id)).toMatchObject({ ok: false, status: 403 });
    expect((await addressBookPolicyOf(database.db)).destinationPolicy).toBe(true);
    expect((await e.preview(finance, 'withdraw', wallet.id, payTo(typed))).ok).toBe(false);
    expect(await e.approve(admin2, asked.data.id)).toMatchObject({ ok: true, data: { status: 'SUCCESS' } });
    expect((await addressBookPolicyOf(database.db)).destinationPolicy).toBe(false);

    const preview = await e.preview(finance, 'withdraw', wallet.id, payTo(typed));
    if (!preview.ok) throw new Error(preview.error);
    const allowed = preview.data.review as { warnings: string[]; items: Array<{ warnings: string[] }> };
    expect(allowed.warnings).toContain(DESTINATION_POLICY_OFF_WARNING);
    expect(allowed.items[0]!.warnings.join(' ')).toContain('Outside the address book');
    const created = await e.create(finance, 'withdraw', wallet.id, payTo(typed));
    if (!created.ok) throw new Error(created.error);

    // The cooling-off holds with the destination policy off.
    const fresh = typedAddress();
    await addEntry('Fresh', fresh);
    const cooling = await e.preview(finance, 'withdraw', wallet.id, payTo(fresh));
    expect(cooling.ok).toBe(false);

    // On again (tightening, still through a second admin): the request made meanwhile is refused at approval.
    await throughQuorum('coolingOffEdit', { coolingOffSeconds: 24 * 60 * 60, destinationPolicy: true });
    const refused = await e.approve(finance2, created.data.id);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toContain(OUTSIDE);
  });
});

/** A call of the sandbox's own API for the wallet, as the service's dashboard would make it. */
async function sandboxCall(method: string, route: string, body?: unknown) {
  const res = await sandbox.handle(
    new Request(`http://sandbox.internal/sandbox/v1/wallets/${wallet.id}${route}`, {
      method,
      headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  return (await res.json()) as { data: Record<string, unknown> };
}

/** Removes `address` from the wallet's book if an earlier test put it there (its entry moves away). */
async function outOfBook(address: string) {
  const [entry] = await database.db
    .select()
    .from(addressBookEntries)
    .where(eq(addressBookEntries.addressKey, address.toLowerCase()));
  if (entry) await moveEntry(entry.address, typedAddress());
}

describe('the destination policy beyond withdrawals', () => {
  const erc20 = (name: string) =>
    erc20Abi.find((e) => e.type === 'function' && e.name === name) as AbiFunction;
  const increaseAllowance = parseAbi([
    'function increaseAllowance(address spender, uint256 addedValue) returns (bool)',
  ])[0] as AbiFunction;
  const mint = parseAbi(['function mint(address to, uint256 amount)'])[0] as AbiFunction;
  const child = () => wallet.addresses.find((a) => /Operating float/.test(a.name ?? ''))!;
  const token = () => wallet.assets.find((a) => a.symbol === 'USDC')!.address;
  const call = (method: string, parameters: unknown[], abi = erc20(method)) => ({
    address: token(),
    method,
    abi: [abi],
    parameters,
  });
  const callsOf = (...calls: Array<ReturnType<typeof call>>) => ({ addressId: child().id, calls });

  it('refuses a contract call whose recipient or spender is outside the book or cooling off, written or signed; an undecodable call is left to its quorum', async () => {
    const e = engine();
    const typed = typedAddress();
    const before = await requestCount();
    const cases: Array<[string, ReturnType<typeof callsOf>, string]> = [
      ['contractWrite', callsOf(call('transfer', [typed, '1'])), 'The recipient of transfer'],
      ['contractWrite', callsOf(call('transferFrom', [PAYEE, typed, '1'])), 'The recipient of transferFrom'],
      ['contractWrite', callsOf(call('approve', [typed, '1'])), 'The spender of approve'],
      [
        'contractWrite',
        callsOf(call('increaseAllowance', [typed, '1'], increaseAllowance)),
        'The spender of increaseAllowance',
      ],
      [
        'contractWrite',
        callsOf(call('transfer', [PAYEE, '1']), call('approve', [typed, '1'])),
        'Call 2, the spender of approve',
      ],
      ['contractSign', callsOf(call('approve', [typed, '1'])), 'The spender of approve'],
    ];
    for (const [kind, payload, where] of cases) {
      const refused = await e.create(admin, kind, wallet.id, payload);
      expect(refused, `${kind} ${where}`).toMatchObject({ ok: false, status: 422 });
      if (!refused.ok) {
        expect(refused.error).toBe(
          `${where}: ${getAddress(typed)} ${OUTSIDE}: money goes only to address book entries past their cooling-off (the destination policy). A whitelisted address or a beneficiary counts once an admin adds it to the book. Nothing was requested.`,
        );
      }
    }
    // The preview says so too, before anything is asked.
    const preview = await e.preview(
      admin,
      'contractWrite',
      wallet.id,
      callsOf(call('approve', [typed, '1'])),
    );
    expect(preview).toMatchObject({ ok: false, status: 422 });

    // In the book, the spender still waits for its cooling-off.
    const spender = typedAddress();
    await addEntry('Exchange router', spender);
    const cooling = await e.create(
      admin,
      'contractWrite',
      wallet.id,
      callsOf(call('approve', [spender, '1'])),
    );
    expect(cooling.ok).toBe(false);
    if (!cooling.ok) {
      expect(cooling.error).toMatch(/^The spender of approve: Exchange router \(/);
      expect(cooling.error).toContain('was added to the address book recently');
    }
    // Only the entry's own request was made.
    expect(await requestCount()).toBe(before + 1);

    // A call the console cannot decode names no recipient: it needs the most approvals, not a book entry.
    const unknown = await e.create(
      admin,
      'contractWrite',
      wallet.id,
      callsOf(call('mint', [typed, '1'], mint)),
    );
    if (!unknown.ok) throw new Error(unknown.error);
    await e.cancel(admin, unknown.data.id);
  });

  it('lets a contract call pay and allow entries past their cooling-off, and sends it', async () => {
    const spender = typedAddress();
    await addEntry('Market maker', spender);
    advance(25 * HOUR);
    const e = engine();
    const created = await e.create(
      admin,
      'contractWrite',
      wallet.id,
      callsOf(call('transfer', [PAYEE, '1']), call('approve', [spender, '5'])),
    );
    if (!created.ok) throw new Error(created.error);
    const signOnly = await e.create(
      admin,
      'contractSign',
      wallet.id,
      callsOf(call('approve', [spender, '5'])),
    );
    if (!signOnly.ok) throw new Error(signOnly.error);
    const calls = upstreamMoneyCalls.length;
    expect(await e.approve(finance, created.data.id, sandbox.totpCode())).toMatchObject({
      ok: true,
      data: { status: 'SUBMITTED' },
    });
    expect(await e.approve(finance, signOnly.data.id, sandbox.totpCode())).toMatchObject({
      ok: true,
      data: { status: 'SUCCESS' },
    });
    expect(upstreamMoneyCalls.length).toBe(calls + 2);
  });

  it('refuses the final approval of a contract call whose spender left the book since; the approval is not recorded', async () => {
    const spender = typedAddress();
    await addEntry('Lending pool', spender);
    advance(25 * HOUR);
    const e = engine();
    const created = await e.create(
      admin,
      'contractWrite',
      wallet.id,
      callsOf(call('approve', [spender, '7'])),
    );
    if (!created.ok) throw new Error(created.error);
    await moveEntry(spender, typedAddress());
    const calls = upstreamMoneyCalls.length;
    const refused = await e.approve(finance, created.data.id, sandbox.totpCode());
    expect(refused).toMatchObject({ ok: false, status: 422 });
    if (!refused.ok) {
      expect(refused.error).toMatch(new RegExp(`^The spender of approve: ${getAddress(spender)} ${OUTSIDE}`));
      expect(refused.error).toContain('The approval was not recorded.');
    }
    expect((await e.view(created.data.id))?.approvals).toHaveLength(0);
    expect(upstreamMoneyCalls.length).toBe(calls);
  });

  /** A withdrawal made at the service itself, far above the balance: it fails on chain, and can be retried. */
  async function failedWithdrawalTo(recipient: string): Promise<string> {
    const usdcId = wallet.assets.find((a) => a.symbol === 'USDC')!.id;
    const made = await sandboxCall('POST', '/withdraw', {
      assets: [{ id: usdcId, address: recipient, amount: '987654321' }],
    });
    await sandbox.drain();
    return String(made.data.id);
  }

  const retryOf = (transactionId: string) => ({ transactionId, addressId: null });

  it('refuses a retry whose recipient is outside the book or cooling off, or cannot be learnt from the service', async () => {
    const e = engine();
    const typed = typedAddress();
    const failed = await failedWithdrawalTo(typed);
    const before = await requestCount();
    const refused = await e.create(finance, 'retry', wallet.id, retryOf(failed));
    expect(refused).toMatchObject({ ok: false, status: 422 });
    if (!refused.ok)
      expect(refused.error).toMatch(
        new RegExp(
          `^The recipient of the retried withdrawal: ${getAddress(typed)} ${OUTSIDE}.* Nothing was requested\\.$`,
        ),
      );

    await addEntry('Supplier', typed);
    const cooling = await e.create(finance, 'retry', wallet.id, retryOf(failed));
    expect(cooling.ok).toBe(false);
    if (!cooling.ok) expect(cooling.error).toContain('Supplier');

    // A transaction the service does not show: where the retry would send money is unknown.
    const missing = crypto.randomUUID();
    const unknown = await e.create(finance, 'retry', wallet.id, retryOf(missing));
    expect(unknown).toMatchObject({ ok: false, status: 422 });
    if (!unknown.ok)
      expect(unknown.error).toBe(
        `The custody service did not show transaction ${missing} to the console, so its recipient cannot be checked against the address book: money goes only to address book entries past their cooling-off (the destination policy). Nothing was requested.`,
      );
    // Only the entry's own request was made.
    expect(await requestCount()).toBe(before + 1);
  });

  it('retries a withdrawal to an entry past its cooling-off; refuses it at the final approval, or at submission, once the entry left the book', async () => {
    const recipient = typedAddress();
    await addEntry('Carrier', recipient);
    advance(25 * HOUR);
    const e = engine();

    const allowed = await e.create(finance, 'retry', wallet.id, retryOf(await failedWithdrawalTo(recipient)));
    if (!allowed.ok) throw new Error(allowed.error);
    const stored = (await e.view(allowed.data.id))?.request.review as {
      transaction: { recipientAddress: string; type: string };
    };
    expect(stored.transaction).toMatchObject({ type: 'WITHDRAW', recipientAddress: getAddress(recipient) });
    let calls = upstreamMoneyCalls.length;
    expect(await e.approve(finance2, allowed.data.id)).toMatchObject({
      ok: true,
      data: { status: 'SUBMITTED' },
    });
    expect(upstreamMoneyCalls.length).toBe(calls + 1);

    // At the final approval: the entry moved away since the retry was asked.
    const second = await e.create(finance, 'retry', wallet.id, retryOf(await failedWithdrawalTo(recipient)));
    if (!second.ok) throw new Error(second.error);
    await moveEntry(recipient, typedAddress());
    calls = upstreamMoneyCalls.length;
    const refused = await e.approve(finance2, second.data.id);
    expect(refused).toMatchObject({ ok: false, status: 422 });
    if (!refused.ok) {
      expect(refused.error).toMatch(
        new RegExp(`^The recipient of the retried withdrawal: ${getAddress(recipient)} ${OUTSIDE}`),
      );
      expect(refused.error).toContain('The approval was not recorded.');
    }
    expect((await e.view(second.data.id))?.approvals).toHaveLength(0);

    // At submission: approved under the freeze, the entry (re-added, cooled off) moves away before the thaw.
    await addEntry('Carrier again', recipient);
    advance(25 * HOUR);
    const third = await e.create(finance, 'retry', wallet.id, retryOf(await failedWithdrawalTo(recipient)));
    if (!third.ok) throw new Error(third.error);
    await e.setFreeze(admin, true);
    try {
      expect(await e.approve(finance2, third.data.id)).toMatchObject({
        ok: true,
        data: { status: 'APPROVED' },
      });
      await moveEntry(recipient, typedAddress());
    } finally {
      await e.setFreeze(admin, false);
    }
    const view = await e.view(third.data.id);
    expect(view?.request.status).toBe('SUBMIT_FAILED');
    expect(view?.request.lastError).toContain(`${getAddress(recipient)} ${OUTSIDE}`);
    expect(view?.request.lastError).toContain('Nothing was sent.');
    expect(upstreamMoneyCalls.length).toBe(calls);
  });

  it('switching auto-settlement on holds every active rule’s destination to the book; switching off is always allowed', async () => {
    const e = engine();
    const settlement = (await sandboxCall('GET', '/auto-settlements')).data as {
      isActive: boolean;
      rules: Array<{ name: string; isActive: boolean; destination: { address: string } }>;
    };
    const rule = settlement.rules.find((r) => r.isActive)!;
    const destination = rule.destination.address;
    await outOfBook(destination);

    // Off first (never refused), through a second admin.
    if (settlement.isActive) {
      const off = await e.create(admin, 'settlementToggle', wallet.id, { isActive: false });
      if (!off.ok) throw new Error(off.error);
      expect(await e.approve(admin2, off.data.id)).toMatchObject({ ok: true, data: { status: 'SUCCESS' } });
    }
    const before = await requestCount();
    const refused = await e.create(admin, 'settlementToggle', wallet.id, { isActive: true });
    expect(refused).toMatchObject({ ok: false, status: 422 });
    if (!refused.ok)
      expect(refused.error).toMatch(
        new RegExp(
          `^Rule “${rule.name}”, in force once auto-settlement is on: ${getAddress(destination)} ${OUTSIDE}.* Nothing was requested\\.$`,
        ),
      );
    await addEntry('Cold storage', destination);
    const cooling = await e.create(admin, 'settlementToggle', wallet.id, { isActive: true });
    expect(cooling.ok).toBe(false);
    if (!cooling.ok) expect(cooling.error).toContain('Cold storage');
    // Only the entry's own request was made.
    expect(await requestCount()).toBe(before + 1);

    // Past its cooling-off: switched on once a second admin approves.
    advance(25 * HOUR);
    const on = await e.create(admin, 'settlementToggle', wallet.id, { isActive: true });
    if (!on.ok) throw new Error(on.error);
    expect(await e.approve(admin2, on.data.id)).toMatchObject({ ok: true, data: { status: 'SUCCESS' } });
    expect((await sandboxCall('GET', '/auto-settlements')).data.isActive).toBe(true);
  });

  it('refuses the final approval of switching auto-settlement on once a rule’s destination left the book', async () => {
    const e = engine();
    const settlement = (await sandboxCall('GET', '/auto-settlements')).data as {
      rules: Array<{ name: string; isActive: boolean; destination: { address: string } }>;
    };
    const destination = settlement.rules.find((r) => r.isActive)!.destination.address;
    const off = await e.create(admin, 'settlementToggle', wallet.id, { isActive: false });
    if (!off.ok) throw new Error(off.error);
    expect(await e.approve(admin2, off.data.id)).toMatchObject({ ok: true, data: { status: 'SUCCESS' } });

    const on = await e.create(admin, 'settlementToggle', wallet.id, { isActive: true });
    if (!on.ok) throw new Error(on.error);
    await moveEntry(destination, typedAddress());
    const refused = await e.approve(admin2, on.data.id);
    expect(refused).toMatchObject({ ok: false, status: 422 });
    if (!refused.ok) {
      expect(refused.error).toContain(`${getAddress(destination)} ${OUTSIDE}`);
      expect(refused.error).toContain('The approval was not recorded.');
    }
    expect((await e.view(on.data.id))?.approvals).toHaveLength(0);
    expect((await sandboxCall('GET', '/auto-settlements')).data.isActive).toBe(false);
  });
});
