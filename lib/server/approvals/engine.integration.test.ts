// The approval engine against the embedded sandbox over one throw-away database: exactly-once submission
// under concurrent approvals, a lost answer reconciled by reference, a payload changed after approval.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransportOptions } from '@/lib/custody';
import { addressBookEntries, operationRequests, users } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import type { WithdrawalPayload } from '@/lib/validation/withdrawals';
import { setDestinationPolicy, trustRecipients } from '@/test/address-book';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { testSandboxOptions } from '@/test/sandbox';
import { createApprovalEngine, type EngineActor } from './engine';
import { referenceFor } from './hash';

const dataDir = mkdtempSync(path.join(tmpdir(), 'approvals-engine-'));
let database: TestDatabase;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let wallet: SandboxCredentials['wallets'][number];
let usdc: { id: string; decimals: number; symbol: string };
const RECIPIENT = '0x00000000000000000000000000000000000000aa';

/** What a test does to the custody calls: count them, lose answers, fail before sending. */
type Interceptor = (url: string, init: RequestInit, forward: () => Promise<Response>) => Promise<Response>;
let interceptor: Interceptor | undefined;
const upstreamWithdrawCalls: string[] = [];

function connectionFor(walletId: string): Promise<TransportOptions | null> {
  const w = creds.wallets.find((x) => x.id === walletId);
  if (!w) return Promise.resolve(null);
  return Promise.resolve({
    baseUrl: 'http://sandbox.internal/sandbox',
    apiKey: w.apiKey,
    timeoutMs: 5_000,
    retries: 0,
    fetch: async (url: string, init: RequestInit) => {
      if (init.method === 'POST' && /\/withdraw(\/sign)?$/.test(url)) upstreamWithdrawCalls.push(url);
      const forward = () => sandbox.fetch(url, init);
      return interceptor ? interceptor(url, init, forward) : forward();
    },
  });
}

const engine = () => createApprovalEngine({ db: database.db, connectionFor, unknownOutcomeWindowMs: 0 });

async function addUser(email: string, role: string): Promise<EngineActor> {
  const [row] = await database.db
    .insert(users)
    .values({ email, name: email, role: role as never, passwordHash: 'not-a-real-hash' })
    .returning();
  return { id: row!.id, email, role };
}

async function upstreamByReference(reference: string) {
  const res = await sandbox.handle(
    new Request(
      `http://sandbox.internal/sandbox/v1/wallets/${wallet.id}/transactions?reference=${reference}`,
      {
        headers: { 'x-api-key': wallet.apiKey },
      },
    ),
  );
  const body = (await res.json()) as { data: Array<{ id: string; status: string }> };
  return body.data;
}

function payload(amount = '1.5', items = 1): WithdrawalPayload {
  return {
    source: { kind: 'master' },
    items: Array.from({ length: items }, (_, i) => ({
      assetId: usdc.id,
      symbol: usdc.symbol,
      decimals: usdc.decimals,
      address: i === 0 ? RECIPIENT : `0x00000000000000000000000000000000000000${(0xb0 + i).toString(16)}`,
      amount,
    })),
  };
}

let requester: EngineActor;
let approver: EngineActor;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await createSandbox(testSandboxOptions(database.handle, dataDir, { seed: 'approvals-test' }));
  creds = await sandbox.credentials();
  wallet = creds.wallets[0]!;
  const asset = wallet.assets.find((a) => a.symbol === 'USDC')!;
  usdc = { id: asset.id, decimals: asset.decimals, symbol: asset.symbol };
  requester = await addUser('requester@example.com', 'finance');
  approver = await addUser('approver@example.com', 'finance');
  // The recipients `payload()` makes are address book entries past their cooling-off (the destination policy).
  await trustRecipients(database.db, wallet.id, [
    RECIPIENT,
    ...Array.from(
      { length: 15 },
      (_, i) => `0x00000000000000000000000000000000000000${(0xb1 + i).toString(16)}`,
    ),
  ]);
});

afterAll(async () => {
  await sandbox?.stop();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('approval engine against the sandbox', () => {
  it('50 concurrent approve calls on one request make exactly one upstream withdrawal', async () => {
    const e = engine();
    await e.updatePolicy(requester, 'withdraw', { approvals: 2, thresholdUsd: null, expirySeconds: 3600 });
    const created = await e.create(requester, 'withdraw', wallet.id, payload('2.25'));
    expect(created.ok).toBe(true);
    const id = created.ok ? created.data.id : '';
    expect(created.ok && created.data.requiredApprovals).toBe(2);
    // 25 approvers, each clicking twice at once.
    const approvers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => addUser(`concurrent-${i}@example.com`, 'finance')),
    );
    const before = upstreamWithdrawCalls.length;
    const results = await Promise.all([...approvers, ...approvers].map((a) => e.approve(a, id)));
    expect(upstreamWithdrawCalls.length - before).toBe(1);
    expect(await upstreamByReference(referenceFor(id, 0))).toHaveLength(1);
    const view = await e.view(id);
    expect(view?.request.status).toBe('SUBMITTED');
    expect(view?.request.submitAttempts).toBe(1);
    expect(view?.approvals.length).toBeLessThanOrEqual(25);
    expect(view?.items[0]?.transactionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(results.filter((r) => !r.ok).length).toBeGreaterThan(0);
    // The claim's events follow the final approval's, once each.
    const kinds = view?.events.map((ev) => ev.kind) ?? [];
    expect(kinds.slice(kinds.indexOf('fully_approved'))).toEqual([
      'fully_approved',
      'submitting',
      'submitted',
    ]);
    await e.updatePolicy(requester, 'withdraw', { approvals: 1, thresholdUsd: null, expirySeconds: 3600 });

    // The transaction settles; following it ends the request in SUCCESS.
    await sandbox.drain();
    expect(await e.followUpRound(id, { force: true })).toBe('SUCCESS');
    const done = await e.view(id);
    expect(done?.events.map((ev) => ev.kind)).toEqual(
      expect.arrayContaining(['requested', 'approved', 'submitting', 'submitted', 'hash', 'succeeded']),
    );
  });

  it('a lost answer after the service acted ends with the real transaction linked and no duplicate', async () => {
    const e = engine();
    const created = await e.create(requester, 'withdraw', wallet.id, payload('3.5', 2));
    const id = created.ok ? created.data.id : '';
    interceptor = async (url, init, forward) => {
      if (init.method === 'POST' && url.endsWith('/withdraw')) {
        await forward();
        throw new DOMException('The operation timed out.', 'TimeoutError');
      }
      return forward();
    };
    try {
      const approved = await e.approve(approver, id);
      expect(approved.ok && approved.data.status).toBe('OUTCOME_UNKNOWN');
    } finally {
      interceptor = undefined;
    }
    expect((await e.view(id))?.request.status).toBe('OUTCOME_UNKNOWN');
    // Nobody may resend blind while the outcome is unknown.
    const blind = await e.resubmit(approver, id);
    expect(blind.ok).toBe(false);

    expect(await e.followUpRound(id, { force: true })).toBe('SUBMITTED');
    const view = await e.view(id);
    for (const [index, item] of (view?.items ?? []).entries()) {
      const upstream = await upstreamByReference(referenceFor(id, index));
      expect(upstream).toHaveLength(1);
      expect(item.transactionId).toBe(upstream[0]!.id);
    }
    expect(view?.request.submitAttempts).toBe(1);
    await sandbox.drain();
    expect(await e.followUpRound(id, { force: true })).toBe('SUCCESS');
  });

  it('confirmed absent after a failure before sending: an approver resubmits with the same reference, once', async () => {
    const e = engine();
    const created = await e.create(requester, 'withdraw', wallet.id, payload('1.25'));
    const id = created.ok ? created.data.id : '';
    interceptor = async (url, init, forward) => {
      if (init.method === 'POST' && url.endsWith('/withdraw')) throw new TypeError('fetch failed');
      return forward();
    };
    try {
      await e.approve(approver, id);
    } finally {
      interceptor = undefined;
    }
    expect(await e.followUpRound(id, { force: true })).toBe('OUTCOME_UNKNOWN');
    expect((await e.view(id))?.request.confirmedAbsentAt).not.toBeNull();
    expect((await e.resubmit(requester, id)).ok).toBe(false);
    const again = await e.resubmit(approver, id, undefined, { acknowledged: true });
    expect(again.ok && again.data.status).toBe('SUBMITTED');
    expect(await upstreamByReference(referenceFor(id, 0))).toHaveLength(1);
  });

  it('refuses a payload modified after approval, and sends nothing', async () => {
    const e = engine();
    const created = await e.create(requester, 'withdraw', wallet.id, payload('4'));
    const id = created.ok ? created.data.id : '';
    await e.setFreeze(requester, true);
    const approved = await e.approve(approver, id);
    expect(approved.ok && approved.data.status).toBe('APPROVED');
    // Someone with database access raises the amount after the approval.
    await database.db
      .update(operationRequests)
      .set({ payload: sql`jsonb_set(${operationRequests.payload}, '{items,0,amount}', '"4000"')` })
      .where(eq(operationRequests.id, id));
    await e.setFreeze(requester, false);
    const view = await e.view(id);
    expect(view?.request.status).toBe('SUBMIT_FAILED');
    expect(view?.request.lastError).toMatch(/changed after it was approved/);
    expect(await upstreamByReference(referenceFor(id, 0))).toHaveLength(0);
    // A resubmission checks the hash again.
    await e.resubmit(approver, id);
    expect((await e.view(id))?.request.status).toBe('SUBMIT_FAILED');
    expect(await upstreamByReference(referenceFor(id, 0))).toHaveLength(0);
  });

  it('keeps approved requests while frozen and submits them when unfrozen', async () => {
    const e = engine();
    const created = await e.create(requester, 'withdraw', wallet.id, payload('0.5'));
    const id = created.ok ? created.data.id : '';
    await e.setFreeze(requester, true);
    await e.approve(approver, id);
    await e.tick();
    expect((await e.view(id))?.request.status).toBe('APPROVED');
    // Fully approved is recorded even though the freeze holds the claim.
    const held = (await e.view(id))?.events.map((ev) => ev.kind) ?? [];
    expect(held.slice(held.indexOf('approved'))).toEqual(['approved', 'fully_approved']);
    expect(await upstreamByReference(referenceFor(id, 0))).toHaveLength(0);
    await e.setFreeze(requester, false);
    expect((await e.view(id))?.request.status).toBe('SUBMITTED');
    expect(await upstreamByReference(referenceFor(id, 0))).toHaveLength(1);
    const kinds = (await e.view(id))?.events.map((ev) => ev.kind) ?? [];
    expect(kinds.slice(kinds.indexOf('approved'))).toEqual([
      'approved',
      'fully_approved',
      'submitting',
      'submitted',
    ]);
  });

  it('the list counts the approvals a settled request received, as its detail does', async () => {
    const e = engine();
    const created = await e.create(requester, 'withdraw', wallet.id, payload('0.75'));
    const id = created.ok ? created.data.id : '';
    await e.approve(approver, id);
    const row = (await e.list(requester, 'mine')).find((r) => r.request.id === id);
    expect(row?.request.status).toBe('SUBMITTED');
    expect(row?.approvals).toBe(1);
  });

  it('an upstream 4xx is SUBMIT_FAILED with the upstream message', async () => {
    const e = engine();
    const otherWalletAsset = creds.wallets[1]!.assets[0]!;
    const bad = payload('1');
    bad.items[0]!.assetId = otherWalletAsset.id;
    const created = await e.create(requester, 'withdraw', wallet.id, bad);
    const id = created.ok ? created.data.id : '';
    await e.approve(approver, id);
    const view = await e.view(id);
    expect(view?.request.status).toBe('SUBMIT_FAILED');
    expect(view?.request.lastError).toContain('is not an asset of this wallet');
  });

  it('never lets the requester approve, counts a person once, and checks the role at approval time', async () => {
    const e = engine();
    await e.updatePolicy(requester, 'withdraw', { approvals: 2, thresholdUsd: null, expirySeconds: 3600 });
    const created = await e.create(requester, 'withdraw', wallet.id, payload('1'));
    await e.updatePolicy(requester, 'withdraw', { approvals: 1, thresholdUsd: null, expirySeconds: 3600 });
    const id = created.ok ? created.data.id : '';
    const own = await e.approve(requester, id);
    expect(own).toMatchObject({ ok: false, error: 'You cannot approve or reject your own request.' });
    expect((await e.approve(approver, id)).ok).toBe(true);
    expect(await e.approve(approver, id)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/one person counts once/),
    });
    const demoted = await addUser('demoted@example.com', 'finance');
    await database.db.update(users).set({ role: 'viewer' }).where(eq(users.email, 'demoted@example.com'));
    expect(await e.approve(demoted, id)).toMatchObject({ ok: false, status: 403 });
    expect((await e.view(id))?.request.status).toBe('PENDING_APPROVAL');
  });

  it('rejects with a reason, and an expired request cannot be approved', async () => {
    const e = engine();
    const created = await e.create(requester, 'withdraw', wallet.id, payload('1'));
    const id = created.ok ? created.data.id : '';
    expect((await e.reject(approver, id, 'Wrong beneficiary')).ok).toBe(true);
    const view = await e.view(id);
    expect(view?.request.status).toBe('REJECTED');
    expect(view?.request.rejectReason).toBe('Wrong beneficiary');

    let clock = Date.now();
    const timed = createApprovalEngine({ db: database.db, connectionFor, now: () => new Date(clock) });
    const late = await timed.create(requester, 'withdraw', wallet.id, payload('1'));
    const lateId = late.ok ? late.data.id : '';
    clock += 25 * 60 * 60 * 1000;
    expect(await timed.approve(approver, lateId)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/expired/),
    });
    expect((await timed.view(lateId))?.request.status).toBe('EXPIRED');
    expect(await upstreamByReference(referenceFor(lateId, 0))).toHaveLength(0);
  });

  it('a sign-only withdrawal ends with decoded signed transactions', async () => {
    const e = engine();
    const created = await e.create(requester, 'withdrawSign', wallet.id, payload('2', 2));
    const id = created.ok ? created.data.id : '';
    const approved = await e.approve(approver, id);
    expect(approved.ok && approved.data.status).toBe('SUCCESS');
    const view = await e.view(id);
    const result = view?.request.result as {
      signed: Array<{
        index: number;
        decoded: { chainId: number; tokenTransfer: { recipient: string; amount: string } };
      }>;
    };
    expect(result.signed).toHaveLength(2);
    expect(result.signed[0]!.decoded.tokenTransfer.recipient.toLowerCase()).toBe(RECIPIENT);
    expect(result.signed[0]!.decoded.tokenTransfer.amount).toBe('2');
    expect(result.signed[0]!.decoded.chainId).toBeGreaterThan(0);
  });

  it('builds a review with fees, balances and warnings', async () => {
    const e = engine();
    const preview = await e.preview(requester, 'withdraw', wallet.id, payload('1', 3));
    expect(preview.ok).toBe(true);
    const review = (preview.ok ? preview.data.review : {}) as {
      items: Array<{ networkFee: string | null; usd: number | null; warnings: string[] }>;
      fee: { total: string | null };
      nativeBalance: { before: string | null; after: string | null };
      estimatedArrivalSeconds: number;
    };
    expect(review.items).toHaveLength(3);
    expect(review.fee.total).toMatch(/^\d/);
    expect(review.items[0]!.networkFee).toMatch(/^\d/);
    expect(review.items[0]!.usd).toBe(1);
    expect(review.nativeBalance.before).toMatch(/^\d/);
    expect(review.estimatedArrivalSeconds).toBe(90);
    expect(review.items[2]!.warnings).toContain('First payment to this address');
    // Named by its address book entry, so nothing says it is outside the book.
    expect((review.items[2] as { book?: { source: string } }).book?.source).toBe('console');
    expect(review.items[2]!.warnings.join('\n')).not.toContain('not whitelisted and not a beneficiary');
  });

  /** The same first and last characters, a different middle: the address-poisoning pattern. */
  function lookAlike(address: string): string {
    const middle = address.slice(5, -3).replace(/./g, (c) => (c === '0' ? '1' : '0'));
    return `${address.slice(0, 5)}${middle}${address.slice(-3)}`;
  }

  /**
   * The warnings a withdrawal's review gives its one recipient. A look-alike is outside the address book, so the
   * destination policy refuses it first: the warnings are read with the policy off, where they are what stands.
   */
  async function reviewWarnings(address: string): Promise<string[]> {
    const base = payload('1', 1);
    const withdrawal = { ...base, items: [{ ...base.items[0]!, address }] };
    await setDestinationPolicy(database.db, false);
    try {
      const preview = await engine().preview(requester, 'withdraw', wallet.id, withdrawal);
      return preview.ok
        ? (preview.data.review as { items: Array<{ warnings: string[] }> }).items[0]!.warnings
        : [];
    } finally {
      await setDestinationPolicy(database.db, true);
    }
  }

  it('flags a recipient that imitates a whitelisted address, naming the trusted one', async () => {
    const trusted = wallet.addresses.find((a) => a.type === 'EXTERNAL');
    expect(trusted, 'the seed whitelists an address').toBeDefined();
    const address = trusted!.address;
    const lookWarnings = await reviewWarnings(lookAlike(address));
    expect(lookWarnings.find((w) => w.startsWith('Looks like'))).toContain(address);
    // The trusted address itself is not flagged.
    const sameWarnings = await reviewWarnings(address);
    expect(sameWarnings.some((w) => w.startsWith('Looks like'))).toBe(false);
  });

  it('flags a look-alike of a recipient the console has paid, from its own submitted requests', async () => {
    // The tests above submitted withdrawals to RECIPIENT; its address book entry has gone since (a look-alike of
    // an entry would name the entry first), and the console still remembers paying it.
    await database.db.delete(addressBookEntries).where(eq(addressBookEntries.addressKey, RECIPIENT));
    const warnings = await reviewWarnings(lookAlike(RECIPIENT));
    expect(warnings.find((w) => w.startsWith('Looks like'))).toBe(
      `Looks like ${RECIPIENT} (paid before by the console): same first and last characters, different in between. Compare every character: this is how address poisoning works.`,
    );
  });
});
