// A payout file through the approval engine against the embedded sandbox: 45 payments become one request sent
// in three batches (20, 20, 5), each batch once; a lost answer for batch 2 is reconciled by reference and
// never resent; a refused batch is sent again by an approver without resending the accepted ones.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayoutResult } from '@/lib/approvals/payouts';
import type { TransportOptions } from '@/lib/custody';
import { users } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import type { PayoutPayload } from '@/lib/validation/payouts';
import { trustRecipients } from '@/test/address-book';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { testSandboxOptions } from '@/test/sandbox';
import { createApprovalEngine, type EngineActor } from './engine';
import { referenceFor } from './hash';

const dataDir = mkdtempSync(path.join(tmpdir(), 'approvals-payout-'));
let database: TestDatabase;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let wallet: SandboxCredentials['wallets'][number];
let usdc: { id: string; decimals: number; symbol: string };

type Interceptor = (url: string, init: RequestInit, forward: () => Promise<Response>) => Promise<Response>;
let interceptor: Interceptor | undefined;
/** Every withdraw call that reached the service, with the references it carried. */
const withdrawCalls: string[][] = [];

function connectionFor(walletId: string): Promise<TransportOptions | null> {
  const w = creds.wallets.find((x) => x.id === walletId);
  if (!w) return Promise.resolve(null);
  return Promise.resolve({
    baseUrl: 'http://sandbox.internal/sandbox',
    apiKey: w.apiKey,
    timeoutMs: 5_000,
    retries: 0,
    fetch: async (url: string, init: RequestInit) => {
      const forward = async () => {
        if (init.method === 'POST' && /\/withdraw$/.test(url)) {
          const body = JSON.parse(String(init.body)) as { assets: Array<{ reference: string }> };
          withdrawCalls.push(body.assets.map((a) => a.reference));
        }
        return sandbox.fetch(url, init);
      };
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
      `http://sandbox.internal/sandbox/v1/wallets/${wallet.id}/transactions?reference=${encodeURIComponent(reference)}`,
      { headers: { 'x-api-key': wallet.apiKey } },
    ),
  );
  const body = (await res.json()) as { data: Array<{ id: string; status: string }> };
  return body.data;
}

function payout(count: number, seed: number): PayoutPayload {
  return {
    source: { kind: 'master' },
    fileName: 'payroll.csv',
    items: Array.from({ length: count }, (_, i) => ({
      line: i + 2,
      assetId: usdc.id,
      symbol: usdc.symbol,
      decimals: usdc.decimals,
      address: `0x${(seed * 1000 + i + 1).toString(16).padStart(40, '0')}`,
      amount: '0.01',
    })),
  };
}

async function resultOf(id: string): Promise<PayoutResult> {
  return (await engine().view(id))?.request.result as PayoutResult;
}

/** Each reference of the request is carried by exactly one transaction at the sandbox. */
async function expectEachOnce(id: string, count: number) {
  for (let index = 0; index < count; index++)
    expect(await upstreamByReference(referenceFor(id, index)), `item ${index}`).toHaveLength(1);
}

let requester: EngineActor;
let approver: EngineActor;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await createSandbox(testSandboxOptions(database.handle, dataDir, { seed: 'payout-test' }));
  creds = await sandbox.credentials();
  wallet = creds.wallets[0]!;
  const asset = wallet.assets.find((a) => a.symbol === 'USDC')!;
  usdc = { id: asset.id, decimals: asset.decimals, symbol: asset.symbol };
  requester = await addUser('payout-requester@example.com', 'finance');
  approver = await addUser('payout-approver@example.com', 'finance');
  // Every row `payout()` makes pays an address book entry past its cooling-off (the destination policy).
  await trustRecipients(
    database.db,
    wallet.id,
    [1, 2, 3, 4].flatMap((seed) => payout(45, seed).items.map((i) => i.address)),
  );
});

afterAll(async () => {
  await sandbox?.stop();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('payout files through the approval engine', () => {
  it('45 payments are one request, approved once, sent as batches of 20, 20 and 5', async () => {
    const e = engine();
    const created = await e.create(requester, 'payout', wallet.id, payout(45, 1));
    expect(created.ok).toBe(true);
    const id = created.ok ? created.data.id : '';
    const view = await e.view(id);
    expect(view?.items).toHaveLength(45);
    const review = view?.request.review as { batches: Array<{ rows: number }> } | undefined;
    expect(review?.batches.map((b) => b.rows)).toEqual([20, 20, 5]);
    // The requester never approves their own.
    expect((await e.approve(requester, id)).ok).toBe(false);
    withdrawCalls.length = 0;
    const approved = await e.approve(approver, id);
    expect(approved.ok && approved.data.status).toBe('SUBMITTED');
    expect(withdrawCalls.map((c) => c.length)).toEqual([20, 20, 5]);
    expect((await resultOf(id)).batches.map((b) => b.state)).toEqual(['submitted', 'submitted', 'submitted']);
    await expectEachOnce(id, 45);
    // Each batch's answer names every item's transaction (the sandbox's `batch`): all 45 are linked at once,
    // each to the service's transaction carrying its reference, none left to a later search.
    const items = (await e.view(id))?.items ?? [];
    expect(items.filter((item) => item.transactionId)).toHaveLength(45);
    for (const item of items)
      expect(item.transactionId, `item ${item.index}`).toBe(
        (await upstreamByReference(item.reference))[0]?.id,
      );
  });

  it('a lost answer for batch 2 is found by reference and never resent; batch 3 goes once', async () => {
    const e = engine();
    const created = await e.create(requester, 'payout', wallet.id, payout(45, 2));
    const id = created.ok ? created.data.id : '';
    withdrawCalls.length = 0;
    let calls = 0;
    interceptor = async (url, init, forward) => {
      if (init.method === 'POST' && url.endsWith('/withdraw') && ++calls === 2) {
        // The service executes batch 2; its answer never arrives.
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
    expect(withdrawCalls.map((c) => c.length)).toEqual([20, 20]);
    expect((await resultOf(id)).batches.map((b) => b.state)).toEqual(['submitted', 'unknown', 'not_sent']);
    // Nobody may resend blind while the outcome is unknown.
    expect((await e.resubmit(approver, id, undefined, { acknowledged: true })).ok).toBe(false);
    // Nor close it as paid by hand while batch 3 was never sent.
    const paid = await e.proposeResolution(approver, id, {
      verdict: 'paid',
      transactionIds: Array.from({ length: 45 }, (_, i) => `tx-${i}`),
      note: 'seen on the dashboard',
    });
    expect(paid.ok).toBe(false);
    expect(!paid.ok && paid.error).toContain('never sent');

    // The follow-up finds batch 2 at the service, links it, and sends batch 3 only.
    expect(await e.followUpRound(id, { force: true })).toBe('SUBMITTED');
    expect(withdrawCalls.map((c) => c.length)).toEqual([20, 20, 5]);
    const result = await resultOf(id);
    expect(result.batches.map((b) => b.state)).toEqual(['submitted', 'submitted', 'submitted']);
    expect(result.batches[1]?.linked).toBe(true);
    await expectEachOnce(id, 45);
    // Following it later sends nothing more.
    await e.followUpRound(id, { force: true });
    expect(withdrawCalls).toHaveLength(3);
  });

  it('a batch that never reached the service is sent once after the window, with the batches after it', async () => {
    const e = engine();
    const created = await e.create(requester, 'payout', wallet.id, payout(45, 4));
    const id = created.ok ? created.data.id : '';
    withdrawCalls.length = 0;
    let calls = 0;
    interceptor = async (url, init, forward) => {
      if (init.method === 'POST' && url.endsWith('/withdraw') && ++calls === 2)
        throw new TypeError('fetch failed');
      return forward();
    };
    try {
      const approved = await e.approve(approver, id);
      expect(approved.ok && approved.data.status).toBe('OUTCOME_UNKNOWN');
    } finally {
      interceptor = undefined;
    }
    expect((await resultOf(id)).batches.map((b) => b.state)).toEqual(['submitted', 'unknown', 'not_sent']);
    // Only batch 2 is in doubt: the lookups find nothing for it and, past the window, it is confirmed absent.
    expect(await e.followUpRound(id, { force: true })).toBe('OUTCOME_UNKNOWN');
    expect((await e.view(id))?.request.confirmedAbsentAt).not.toBeNull();
    const again = await e.resubmit(approver, id, undefined, { acknowledged: true });
    expect(again.ok && again.data.status).toBe('SUBMITTED');
    expect(withdrawCalls.map((c) => c.length)).toEqual([20, 20, 5]);
    expect(withdrawCalls[1]).toEqual(Array.from({ length: 20 }, (_, i) => referenceFor(id, 20 + i)));
    await expectEachOnce(id, 45);
  });

  it('a refused batch waits for an approver, who sends it and the rest without resending batch 1', async () => {
    const e = engine();
    const created = await e.create(requester, 'payout', wallet.id, payout(25, 3));
    const id = created.ok ? created.data.id : '';
    withdrawCalls.length = 0;
    let calls = 0;
    interceptor = async (url, init, forward) => {
      if (init.method === 'POST' && url.endsWith('/withdraw') && ++calls === 2)
        return new Response(JSON.stringify({ statusCode: 400, message: 'Insufficient balance' }), {
          status: 400,
          headers: { 'content-type': 'application/json' },
        });
      return forward();
    };
    try {
      const approved = await e.approve(approver, id);
      expect(approved.ok && approved.data.status).toBe('SUBMIT_FAILED');
    } finally {
      interceptor = undefined;
    }
    const failed = await resultOf(id);
    expect(failed.batches.map((b) => b.state)).toEqual(['submitted', 'failed']);
    expect(failed.batches[1]?.message).toContain('Insufficient balance');
    expect((await e.view(id))?.request.lastError).toContain('Batch 2 of 2 was refused');

    const again = await e.resubmit(approver, id);
    expect(again.ok && again.data.status).toBe('SUBMITTED');
    expect(withdrawCalls.map((c) => c.length)).toEqual([20, 5]);
    await expectEachOnce(id, 25);
  });
});
