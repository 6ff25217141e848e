// Spending limits enforced by the approval engine against the embedded sandbox: at creation (extra approvals
// or a refusal), again at the final approval, and under concurrency (two requests at once never both fit).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LimitCheck, SpendingRuleValues } from '@/lib/approvals/limits';
import type { TransportOptions } from '@/lib/custody';
import { operationApprovals, operationRequests, spendingLimits, users } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import type { WithdrawalPayload } from '@/lib/validation/withdrawals';
import { trustRecipients } from '@/test/address-book';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { testSandboxOptions } from '@/test/sandbox';
import { createApprovalEngine, type EngineActor } from './engine';

const dataDir = mkdtempSync(path.join(tmpdir(), 'approvals-limits-'));
let database: TestDatabase;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let wallet: SandboxCredentials['wallets'][number];
let usdc: { id: string; decimals: number; symbol: string };

function connectionFor(walletId: string): Promise<TransportOptions | null> {
  const w = creds.wallets.find((x) => x.id === walletId);
  if (!w) return Promise.resolve(null);
  return Promise.resolve({
    baseUrl: 'http://sandbox.internal/sandbox',
    apiKey: w.apiKey,
    timeoutMs: 5_000,
    retries: 0,
    fetch: (url: string, init: RequestInit) => sandbox.fetch(url, init),
  });
}

const engine = () => createApprovalEngine({ db: database.db, connectionFor });

async function addUser(email: string, role: string): Promise<EngineActor> {
  const [row] = await database.db
    .insert(users)
    .values({ email, name: email, role: role as never, passwordHash: 'not-a-real-hash' })
    .returning();
  return { id: row!.id, email, role };
}

let counter = 0;
function payload(amount: string): WithdrawalPayload {
  counter += 1;
  return {
    source: { kind: 'master' },
    items: [
      {
        assetId: usdc.id,
        symbol: usdc.symbol,
        decimals: usdc.decimals,
        address: `0x${counter.toString(16).padStart(40, '0')}`,
        amount,
      },
    ],
  };
}

async function addRule(values: Partial<SpendingRuleValues> = {}) {
  const rule = {
    walletId: wallet.id,
    scope: 'wallet',
    windowHours: 24,
    unit: 'usd',
    assetSymbol: null,
    limit: '1000',
    onBreach: 'approvals',
    extraApprovals: 1,
    ...values,
  };
  await database.db.insert(spendingLimits).values({
    walletId: rule.walletId,
    scope: rule.scope,
    windowHours: rule.windowHours,
    unit: rule.unit,
    assetSymbol: rule.assetSymbol,
    limitAmount: rule.limit,
    onBreach: rule.onBreach,
    extraApprovals: rule.extraApprovals,
    createdBy: 'test',
  });
}

async function limitsOf(id: string): Promise<LimitCheck | undefined> {
  const [row] = await database.db
    .select({ review: operationRequests.review })
    .from(operationRequests)
    .where(eq(operationRequests.id, id));
  return (row?.review as { limits?: LimitCheck } | undefined)?.limits;
}

let requester: EngineActor;
let approver: EngineActor;
let approver2: EngineActor;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await createSandbox(testSandboxOptions(database.handle, dataDir, { seed: 'limits-test' }));
  creds = await sandbox.credentials();
  wallet = creds.wallets[0]!;
  const asset = wallet.assets.find((a) => a.symbol === 'USDC')!;
  usdc = { id: asset.id, decimals: asset.decimals, symbol: asset.symbol };
  requester = await addUser('requester@example.com', 'finance');
  approver = await addUser('approver@example.com', 'finance');
  approver2 = await addUser('approver2@example.com', 'finance');
  // The recipients the tests make (`payload()`, the payout file's rows) are address book entries past their
  // cooling-off: the destination policy would refuse them before any limit is counted.
  await trustRecipients(
    database.db,
    wallet.id,
    Array.from({ length: 1200 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`),
  );
});

// Each test starts with no rule and an empty window.
afterEach(async () => {
  await database.db.delete(spendingLimits);
  await database.db.update(operationRequests).set({ status: 'CANCELLED' });
});

afterAll(async () => {
  await sandbox?.stop();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('spending limits in the approval engine', () => {
  it('a $1,000 daily wallet limit: $600 passes, a second $600 needs one more approval', async () => {
    await addRule();
    const e = engine();
    const first = await e.create(requester, 'withdraw', wallet.id, payload('600'));
    if (!first.ok) throw new Error(first.error);
    expect(first.data.requiredApprovals).toBe(1);
    const firstLimits = await limitsOf(first.data.id);
    expect(firstLimits?.rows[0]).toMatchObject({
      used: '0.00',
      request: '600.00',
      remainingAfter: '400.00',
      breached: false,
    });

    // The preview already says so, and shows what the rule leaves.
    const previewed = await e.preview(requester, 'withdraw', wallet.id, payload('600'));
    if (!previewed.ok) throw new Error(previewed.error);
    expect(previewed.data.requiredApprovals).toBe(2);
    expect((previewed.data.review as { limits?: LimitCheck }).limits?.rows[0]).toMatchObject({
      used: '600.00',
      remainingAfter: '-200.00',
      breached: true,
    });

    const second = await e.create(requester, 'withdraw', wallet.id, payload('600'));
    if (!second.ok) throw new Error(second.error);
    expect(second.data.requiredApprovals).toBe(2);

    // One approval is not enough for the second; the second approver's is.
    const once = await e.approve(approver, second.data.id);
    expect(once.ok && once.data.status).toBe('PENDING_APPROVAL');
    const twice = await e.approve(approver2, second.data.id);
    expect(twice.ok && twice.data.status).not.toBe('PENDING_APPROVAL');
  });

  it('a refusing rule refuses the second $600 with the rule and the amount over, and keeps nothing', async () => {
    await addRule({ onBreach: 'refuse', extraApprovals: 0 });
    const e = engine();
    const first = await e.create(requester, 'withdraw', wallet.id, payload('600'));
    expect(first.ok).toBe(true);
    const before = await database.db.select({ n: sql<number>`count(*)` }).from(operationRequests);
    const preview = await e.preview(requester, 'withdraw', wallet.id, payload('600'));
    expect(preview.ok).toBe(false);
    const second = await e.create(requester, 'withdraw', wallet.id, payload('600'));
    expect(second.ok).toBe(false);
    if (second.ok) return;
    expect(second.status).toBe(422);
    expect(second.error).toMatch(/^Refused by the spending limit \$1,000\.00 per 24 hours per wallet/);
    expect(second.error).toContain(
      '$600.00 already counted in the window, this request adds $600.00, $200.00 over',
    );
    const after = await database.db.select({ n: sql<number>`count(*)` }).from(operationRequests);
    expect(Number(after[0]?.n)).toBe(Number(before[0]?.n));
    // A rejected request frees its amount.
    if (!first.ok) return;
    await e.reject(approver, first.data.id, 'not needed');
    expect((await e.create(requester, 'withdraw', wallet.id, payload('600'))).ok).toBe(true);
  });

  it('a payout file counts every row: after $600, three rows of $200 need one more approval, or are refused', async () => {
    await addRule();
    const e = engine();
    const first = await e.create(requester, 'withdraw', wallet.id, payload('600'));
    expect(first.ok).toBe(true);
    const rows = [payload('200'), payload('200'), payload('200')].map((p, i) => ({
      ...p.items[0]!,
      line: i + 2,
    }));
    const file = { source: { kind: 'master' }, fileName: 'payroll.csv', items: rows };
    const payout = await e.create(requester, 'payout', wallet.id, file);
    if (!payout.ok) throw new Error(payout.error);
    expect(payout.data.requiredApprovals).toBe(2);
    expect((await limitsOf(payout.data.id))?.rows[0]).toMatchObject({
      used: '600.00',
      request: '600.00',
      breached: true,
    });
    await e.cancel(requester, payout.data.id);
    await database.db.delete(spendingLimits);
    await addRule({ onBreach: 'refuse', extraApprovals: 0 });
    const refused = await e.create(requester, 'payout', wallet.id, {
      ...file,
      items: rows.map((r, i) => ({ ...r, address: `0x${(900 + i).toString(16).padStart(40, '0')}` })),
    });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toMatch(/^Refused by the spending limit/);
  });

  it('of two requests created at the same moment, only one fits under a refusing limit', async () => {
    await addRule({ onBreach: 'refuse', extraApprovals: 0 });
    const e = engine();
    const results = await Promise.all(
      Array.from({ length: 4 }, () => e.create(requester, 'withdraw', wallet.id, payload('600'))),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.error.startsWith('Refused by the spending limit'))).toHaveLength(
      3,
    );
  });

  it('the final approval checks again: of two approved at once, the second is refused and its approval not kept', async () => {
    const e = engine();
    const a = await e.create(requester, 'withdraw', wallet.id, payload('600'));
    const b = await e.create(requester, 'withdraw', wallet.id, payload('600'));
    if (!a.ok || !b.ok) throw new Error('not created');
    // The rule arrives after both were created.
    await addRule({ onBreach: 'refuse', extraApprovals: 0 });
    const results = await Promise.all([e.approve(approver, a.data.id), e.approve(approver, b.data.id)]);
    const refused = results.filter((r) => !r.ok);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.ok === false && refused[0].error).toMatch(
      /^Refused by the spending limit .* The approval was not recorded\.$/,
    );
    const statuses = await database.db
      .select({ id: operationRequests.id, status: operationRequests.status })
      .from(operationRequests)
      .where(sql`${operationRequests.id} in (${a.data.id}, ${b.data.id})`);
    expect(statuses.filter((s) => s.status === 'PENDING_APPROVAL')).toHaveLength(1);
    const pending = statuses.find((s) => s.status === 'PENDING_APPROVAL')!;
    const kept = await database.db
      .select()
      .from(operationApprovals)
      .where(eq(operationApprovals.requestId, pending.id));
    expect(kept).toHaveLength(0);
  });

  it('a payout file counts row by row: two $600 rows break a refusing $1,000 limit', async () => {
    await addRule({ onBreach: 'refuse', extraApprovals: 0 });
    const e = engine();
    const rows = [payload('600'), payload('600')].map((p, i) => ({ ...p.items[0]!, line: i + 2 }));
    const refused = await e.create(requester, 'payout', wallet.id, {
      source: { kind: 'master' },
      fileName: 'payouts.csv',
      items: rows,
    });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toContain('$200.00 over the limit of $1,000.00');
    const fits = await e.create(requester, 'payout', wallet.id, {
      source: { kind: 'master' },
      fileName: 'payouts.csv',
      items: rows.slice(0, 1),
    });
    expect(fits.ok).toBe(true);
    // The file's $600 counts against the next withdrawal.
    const next = await e.create(requester, 'withdraw', wallet.id, payload('600'));
    expect(!next.ok && next.error).toContain('$600.00 already counted in the window');
  });

  it('a rule that asks for more approvals raises a request at its final approval when the window filled meanwhile', async () => {
    const e = engine();
    const a = await e.create(requester, 'withdraw', wallet.id, payload('600'));
    const b = await e.create(requester, 'withdraw', wallet.id, payload('600'));
    if (!a.ok || !b.ok) throw new Error('not created');
    await addRule({ extraApprovals: 1 });
    const first = await e.approve(approver, a.data.id);
    expect(first.ok && first.data.status).not.toBe('PENDING_APPROVAL');
    const second = await e.approve(approver, b.data.id);
    expect(second.ok && second.data.status).toBe('PENDING_APPROVAL');
    const view = await e.view(b.data.id);
    expect(view?.request.requiredApprovals).toBe(2);
    expect(view?.events.map((ev) => ev.kind)).toContain('limits_rechecked');
    const third = await e.approve(approver2, b.data.id);
    expect(third.ok && third.data.status).not.toBe('PENDING_APPROVAL');
  });
});
