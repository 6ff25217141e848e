// Money moves exactly once against a service that fails, hangs, answers late or not at all, or has only the
// spec's 23 endpoints: the approval engine talks to the sandbox over real HTTP through a fault-injecting
// proxy, and each case counts what reached the service.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { type AbiFunction, erc20Abi } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TransportOptions } from '@/lib/custody';
import { notifications, users } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { buildPermit } from '@/lib/validation/typed-data';
import type { WithdrawalPayload } from '@/lib/validation/withdrawals';
import { trustRecipients } from '@/test/address-book';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { type FaultProxy, startFaultProxy } from '@/test/fault-proxy';
import { type ServedSandbox, serveSandbox } from '@/test/serve-sandbox';
import { createApprovalEngine, type EngineActor } from './engine';

const WINDOW_MS = 10 * 60_000;
// The transport's deadline: the hang and late faults wait it out, and every call that succeeds must answer within
// it. The sandbox answers from the same process (PGlite in the test's worker): 1 s was missed under a busy suite.
const TIMEOUT_MS = 5_000;
const WITHDRAW = /\/withdraw$/;
const dataDir = mkdtempSync(path.join(tmpdir(), 'approvals-faults-'));
let database: TestDatabase;
let sandbox: Sandbox;
let served: ServedSandbox;
let proxy: FaultProxy;
let creds: SandboxCredentials;
let wallet: SandboxCredentials['wallets'][number];
let requester: EngineActor;
let approver: EngineActor;
let approver2: EngineActor;
let admin: EngineActor;
/** The engine's clock: the unknown-outcome window passes when a test says so, never by sleeping. */
let clock = Date.now();
/** Webhooks the sandbox delivered, as the receiver hands them to the engine after verifying them. */
const delivered: Array<{ walletId: string; body: string }> = [];

function connectionFor(walletId: string): Promise<TransportOptions | null> {
  const w = creds.wallets.find((x) => x.id === walletId);
  return Promise.resolve(
    w ? { baseUrl: proxy.url, apiKey: w.apiKey, timeoutMs: TIMEOUT_MS, retries: 1, backoffMs: 10 } : null,
  );
}

function engine() {
  return createApprovalEngine({
    db: database.db,
    connectionFor,
    now: () => new Date(clock),
    unknownOutcomeWindowMs: WINDOW_MS,
  });
}

async function addUser(email: string, role: string): Promise<EngineActor> {
  const [row] = await database.db
    .insert(users)
    .values({ email, name: email, role: role as never, passwordHash: 'not-a-real-hash' })
    .returning();
  return { id: row!.id, email, role };
}

/** What the service holds for a reference, read straight from the sandbox (not through the proxy). */
async function upstreamByReference(reference: string) {
  const res = await sandbox.handle(
    new Request(`${served.url}/v1/wallets/${wallet.id}/transactions?reference=${reference}`, {
      headers: { 'x-api-key': wallet.apiKey },
    }),
  );
  const body = (await res.json()) as { data: Array<{ id: string; status: string; type: string }> };
  return body.data.filter((t) => t.type !== 'DEPOSIT');
}

async function sandboxPost(route: string, body: unknown) {
  const res = await sandbox.handle(
    new Request(`${served.url}${route}`, {
      method: 'POST',
      headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  return { status: res.status, json: (await res.json()) as { data: Record<string, unknown> } };
}

let counter = 0;
function payload(reference?: string): WithdrawalPayload {
  const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
  counter += 1;
  return {
    source: { kind: 'master' },
    items: [
      {
        assetId: usdc.id,
        symbol: usdc.symbol,
        decimals: usdc.decimals,
        address: `0x00000000000000000000000000000000000000${(0x10 + counter).toString(16).padStart(2, '0')}`,
        amount: '1.5',
        ...(reference ? { reference } : {}),
      },
    ],
  };
}

async function requestWithdrawal(e: ReturnType<typeof engine>, reference?: string) {
  const created = await e.create(requester, 'withdraw', wallet.id, payload(reference));
  if (!created.ok) throw new Error(created.error);
  const view = await e.view(created.data.id);
  return { id: created.data.id, reference: view!.items[0]!.reference };
}

async function abilities(e: ReturnType<typeof engine>, id: string, actor = approver) {
  const view = await e.view(id);
  return e.abilities(actor, view!.request, []);
}

/** Hands every delivered webhook to the engine, as the receiver does after checking its signature. */
async function feedWebhooks(e: ReturnType<typeof engine>) {
  for (const d of delivered.splice(0)) {
    const envelope = JSON.parse(d.body) as {
      event: string;
      data: { id: string; reference: string; status: string; type: string; hash: string | null };
    };
    await e.onTransactionEvent({
      walletId: d.walletId,
      transactionId: envelope.data.id,
      reference: envelope.data.reference,
      status: envelope.data.status,
      type: envelope.data.type,
      hash: envelope.data.hash,
    });
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await createSandbox({
    db: database.db,
    dbKind: database.handle.kind,
    encryptionKey: Buffer.alloc(32, 9),
    seed: 'faults-test',
    blockTimeMs: 1000,
    webhookUrl: 'http://console.internal/api/webhooks/custody',
    webhookRetryMs: [],
    signatureHeader: 'x-blockradar-signature',
    baseUrl: 'http://sandbox.internal/sandbox',
    dataDir,
    fetch: async (_url, init) => {
      const body = String(init?.body ?? '');
      const walletId = (JSON.parse(body) as { data?: { wallet?: { id?: string } } }).data?.wallet?.id;
      delivered.push({ walletId: walletId ?? wallet.id, body });
      return new Response('ok');
    },
  });
  served = await serveSandbox(sandbox);
  proxy = await startFaultProxy({ target: served.url });
  creds = await sandbox.credentials();
  wallet = creds.wallets[0]!;
  requester = await addUser('requester@example.com', 'finance');
  approver = await addUser('approver@example.com', 'finance');
  approver2 = await addUser('approver2@example.com', 'finance');
  admin = await addUser('admin@example.com', 'admin');
  await engine().updatePolicy(admin, 'withdraw', { approvals: 1, thresholdUsd: null, expirySeconds: 3600 });
  // Every recipient `payload()` makes is an address book entry past its cooling-off (the destination policy).
  await trustRecipients(
    database.db,
    wallet.id,
    Array.from({ length: 0xef }, (_, i) => `0x${(0x11 + i).toString(16).padStart(40, '0')}`),
  );
}, 120_000);

afterEach(() => {
  proxy.setFault(null);
});

afterAll(async () => {
  await proxy?.close();
  await served?.close();
  await sandbox?.stop();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a withdrawal against a failing service', () => {
  it('500 before the service acts: unknown, never resubmittable inside the window, then sent once', async () => {
    const e = engine();
    const { id, reference } = await requestWithdrawal(e);
    proxy.setFault({ mode: '500', match: { method: 'POST', path: WITHDRAW } });
    const approved = await e.approve(approver, id);
    expect(approved.ok && approved.data.status).toBe('OUTCOME_UNKNOWN');
    expect(proxy.forwardedCount({ method: 'POST', path: WITHDRAW })).toBe(0);

    // The service shows nothing, but a late execution is still possible: no resubmission is offered.
    expect(await e.followUpRound(id, { force: true })).toBe('OUTCOME_UNKNOWN');
    expect((await abilities(e, id)).canResubmit).toBe(false);
    const early = await e.resubmit(approver, id, undefined, { acknowledged: true });
    expect(early.ok).toBe(false);
    expect(!early.ok && early.error).toMatch(/not known yet/);

    clock += WINDOW_MS + 1_000;
    await e.followUpRound(id, { force: true });
    expect((await e.view(id))?.request.confirmedAbsentAt).not.toBeNull();
    expect((await abilities(e, id)).canResubmit).toBe(true);
    expect((await e.resubmit(approver, id)).ok).toBe(false); // not acknowledged
    const again = await e.resubmit(approver, id, undefined, { acknowledged: true });
    expect(again.ok && again.data.status).toBe('SUBMITTED');
    expect(await upstreamByReference(reference)).toHaveLength(1);
    expect(proxy.forwardedCount({ method: 'POST', path: WITHDRAW })).toBe(1);
  });

  it('429 with Retry-After: refused upstream, nothing executed, a person may send it again', async () => {
    const e = engine();
    const { id, reference } = await requestWithdrawal(e);
    proxy.setFault({ mode: '429', match: { method: 'POST', path: WITHDRAW }, retryAfterSeconds: 30 });
    const approved = await e.approve(approver, id);
    expect(approved.ok && approved.data.status).toBe('SUBMIT_FAILED');
    expect((await e.view(id))?.request.lastError).toBeTruthy();
    expect(await upstreamByReference(reference)).toHaveLength(0);
    const again = await e.resubmit(approver, id);
    expect(again.ok && again.data.status).toBe('SUBMITTED');
    expect(await upstreamByReference(reference)).toHaveLength(1);
  });

  it('a hanging service: the call times out as unknown; after the window it is sent once', async () => {
    const e = engine();
    const { id, reference } = await requestWithdrawal(e);
    proxy.setFault({ mode: 'hang', match: { method: 'POST', path: WITHDRAW } });
    const approved = await e.approve(approver, id);
    expect(approved.ok && approved.data.status).toBe('OUTCOME_UNKNOWN');
    expect((await abilities(e, id)).canResubmit).toBe(false);
    clock += WINDOW_MS + 1_000;
    await e.followUpRound(id, { force: true });
    const again = await e.resubmit(approver, id, undefined, { acknowledged: true });
    expect(again.ok && again.data.status).toBe('SUBMITTED');
    expect(await upstreamByReference(reference)).toHaveLength(1);
  });

  it('a connection reset: unknown, then sent once after the window', async () => {
    const e = engine();
    const { id, reference } = await requestWithdrawal(e);
    proxy.setFault({ mode: 'reset', match: { method: 'POST', path: WITHDRAW } });
    expect((await e.approve(approver, id)).ok).toBe(true);
    expect((await e.view(id))?.request.status).toBe('OUTCOME_UNKNOWN');
    clock += WINDOW_MS + 1_000;
    await e.followUpRound(id, { force: true });
    expect((await e.resubmit(approver, id, undefined, { acknowledged: true })).ok).toBe(true);
    expect(await upstreamByReference(reference)).toHaveLength(1);
  });

  it.each([
    ['malformed JSON', 'malformed'],
    ['an answer dropped after execution', 'drop-after-execution'],
  ] as const)(
    '%s: the executed withdrawal is found, linked and settled; never sent twice',
    async (_, mode) => {
      const e = engine();
      const { id, reference } = await requestWithdrawal(e);
      proxy.setFault({ mode, match: { method: 'POST', path: WITHDRAW } });
      expect((await e.approve(approver, id)).ok).toBe(true);
      expect((await e.view(id))?.request.status).toBe('OUTCOME_UNKNOWN');
      expect((await abilities(e, id)).canResubmit).toBe(false);
      expect(await e.followUpRound(id, { force: true })).toBe('SUBMITTED');
      await sandbox.drain();
      expect(await e.followUpRound(id, { force: true })).toBe('SUCCESS');
      const upstream = await upstreamByReference(reference);
      expect(upstream).toHaveLength(1);
      expect((await e.view(id))?.items[0]?.transactionId).toBe(upstream[0]!.id);
      expect(proxy.forwardedCount({ method: 'POST', path: WITHDRAW })).toBeGreaterThanOrEqual(1);
    },
  );

  it('executed after the timeout: no resubmission before the late execution lands; one payment, SUCCESS', async () => {
    const e = engine();
    const { id, reference } = await requestWithdrawal(e);
    const sentBefore = proxy.forwardedCount({ method: 'POST', path: WITHDRAW });
    proxy.setFault({ mode: 'late', match: { method: 'POST', path: WITHDRAW }, lateMs: TIMEOUT_MS + 1_500 });
    expect((await e.approve(approver, id)).ok).toBe(true);
    expect((await e.view(id))?.request.status).toBe('OUTCOME_UNKNOWN');
    // While the late call is in flight: nothing upstream yet, and nobody may send it again.
    expect(await e.followUpRound(id, { force: true })).toBe('OUTCOME_UNKNOWN');
    expect(await upstreamByReference(reference)).toHaveLength(0);
    expect((await abilities(e, id)).canResubmit).toBe(false);
    expect((await e.resubmit(approver, id, undefined, { acknowledged: true })).ok).toBe(false);

    await proxy.whenIdle();
    expect(await upstreamByReference(reference)).toHaveLength(1);
    expect(await e.followUpRound(id, { force: true })).toBe('SUBMITTED');
    await sandbox.drain();
    expect(await e.followUpRound(id, { force: true })).toBe('SUCCESS');
    expect(await upstreamByReference(reference)).toHaveLength(1);
    expect(proxy.forwardedCount({ method: 'POST', path: WITHDRAW }) - sentBefore).toBe(1);
  });

  it("sends the requester's own reference upstream and refuses it for a second request of the wallet", async () => {
    const e = engine();
    const own = `inv-${Date.now()}`;
    const { id, reference } = await requestWithdrawal(e, own);
    expect(reference).toBe(own);
    const clash = await e.create(requester, 'withdraw', wallet.id, payload(own));
    expect(clash.ok).toBe(false);
    expect(!clash.ok && 'fieldErrors' in clash && clash.fieldErrors).toEqual({
      'rows.0.reference': `Reference ${own} is already used by another request of this wallet.`,
    });
    expect((await e.approve(approver, id)).ok).toBe(true);
    const upstream = await upstreamByReference(own);
    expect(upstream).toHaveLength(1);
  });
});

describe('duplicates', () => {
  it('two upstream transactions with one reference put the request in DUPLICATE within one round, notified', async () => {
    const e = engine();
    const { id, reference } = await requestWithdrawal(e);
    expect((await e.approve(approver, id)).ok).toBe(true);
    const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
    const injected = await sandboxPost(`/v1/wallets/${wallet.id}/withdraw`, {
      assets: [
        { id: usdc.id, address: '0x00000000000000000000000000000000000000dd', amount: '1', reference },
      ],
    });
    expect(injected.status).toBe(200);
    expect(await upstreamByReference(reference)).toHaveLength(2);
    expect(await e.followUpRound(id, { force: true })).toBe('DUPLICATE');
    const view = await e.view(id);
    const seen = (view?.request.duplicates?.[0] as { transactions: unknown[] } | undefined)?.transactions;
    expect(seen).toHaveLength(2);
    expect(view?.events.map((ev) => ev.kind)).toContain('duplicate_detected');
    const told = await database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.requestId, id), eq(notifications.userId, approver2.id)));
    expect(told.some((n) => /Duplicate/.test(n.message))).toBe(true);
  });

  it('a late webhook for a second payment turns a settled request into DUPLICATE', async () => {
    const e = engine();
    const { id, reference } = await requestWithdrawal(e);
    expect((await e.approve(approver, id)).ok).toBe(true);
    await sandbox.drain();
    await feedWebhooks(e);
    expect((await e.view(id))?.request.status).toBe('SUCCESS');
    const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
    await sandboxPost(`/v1/wallets/${wallet.id}/withdraw`, {
      assets: [
        { id: usdc.id, address: '0x00000000000000000000000000000000000000de', amount: '1', reference },
      ],
    });
    await sandbox.drain();
    await feedWebhooks(e);
    expect((await e.view(id))?.request.status).toBe('DUPLICATE');
  });
});

describe('a service with the spec alone', () => {
  it('a withdrawal reaches SUCCESS from the webhook alone, with no extension call answered', async () => {
    const e = engine();
    proxy.setFault({ mode: 'spec-only', times: Number.POSITIVE_INFINITY });
    delivered.length = 0;
    const { id } = await requestWithdrawal(e);
    const approved = await e.approve(approver, id);
    expect(approved.ok && approved.data.status).toBe('SUBMITTED');
    await sandbox.drain();
    await feedWebhooks(e);
    expect((await e.view(id))?.request.status).toBe('SUCCESS');
    expect(proxy.calls.filter((c) => c.fault === 'spec-only' && c.status === 200)).toHaveLength(0);
  });

  it('a lost answer no lookup can settle: two people resolve it by hand, audited', async () => {
    const e = engine();
    const { id, reference } = await requestWithdrawal(e);
    proxy.setFault({ mode: 'drop-after-execution', match: { method: 'POST', path: WITHDRAW } });
    expect((await e.approve(approver, id)).ok).toBe(true);
    proxy.setFault({ mode: 'spec-only', times: Number.POSITIVE_INFINITY });
    // No extension, a master-wallet source and no webhook yet: nothing the service offers can prove it.
    expect(await e.followUpRound(id, { force: true })).toBe('OUTCOME_UNKNOWN');
    clock += WINDOW_MS + 1_000;
    expect(await e.followUpRound(id, { force: true })).toBe('OUTCOME_UNKNOWN');
    expect((await e.view(id))?.request.confirmedAbsentAt).toBeNull();
    const can = await abilities(e, id);
    expect(can.canResubmit).toBe(false);
    expect(can.canProposeResolution).toBe(true);

    // The person checked the service's dashboard: it shows the payment.
    const [tx] = await upstreamByReference(reference);
    const proposed = await e.proposeResolution(approver, id, {
      verdict: 'paid',
      transactionIds: [tx!.id],
      note: 'Seen in the custody dashboard as PENDING to the same recipient.',
    });
    expect(proposed.ok).toBe(true);
    expect((await e.view(id))?.request.status).toBe('OUTCOME_UNKNOWN');
    expect((await e.confirmResolution(approver, id)).ok).toBe(false); // the same person
    expect((await e.confirmResolution(requester, id)).ok).toBe(false); // the requester
    const confirmed = await e.confirmResolution(approver2, id);
    expect(confirmed.ok && confirmed.data.status).toBe('SUCCESS');
    const view = await e.view(id);
    expect(view?.items[0]?.transactionId).toBe(tx!.id);
    expect(view?.events.map((ev) => ev.kind)).toEqual(
      expect.arrayContaining(['resolution_proposed', 'resolution_confirmed']),
    );
    expect(await upstreamByReference(reference)).toHaveLength(1);
  });

  it('"not paid" cannot be recorded before the window; after it, two people open the way to a resubmission', async () => {
    const e = engine();
    const { id, reference } = await requestWithdrawal(e);
    proxy.setFault({ mode: 'reset', match: { method: 'POST', path: WITHDRAW } });
    expect((await e.approve(approver, id)).ok).toBe(true);
    proxy.setFault({ mode: 'spec-only', times: Number.POSITIVE_INFINITY });
    const early = await e.proposeResolution(approver, id, {
      verdict: 'not_paid',
      note: 'Nothing in the dashboard.',
    });
    expect(early.ok).toBe(false);
    clock += WINDOW_MS + 1_000;
    expect(
      (await e.proposeResolution(approver, id, { verdict: 'not_paid', note: 'Nothing in the dashboard.' }))
        .ok,
    ).toBe(true);
    expect((await e.confirmResolution(approver2, id)).ok).toBe(true);
    expect((await abilities(e, id, approver)).canResubmit).toBe(true);
    const again = await e.resubmit(approver, id, undefined, { acknowledged: true });
    expect(again.ok && again.data.status).toBe('SUBMITTED');
    expect(await upstreamByReference(reference)).toHaveLength(1);
  });
});

describe('follow-up', () => {
  it('backs off, shares one lookup per request, and parks after its rounds', async () => {
    const e = createApprovalEngine({
      db: database.db,
      connectionFor,
      now: () => new Date(clock),
      unknownOutcomeWindowMs: WINDOW_MS,
      followUp: { maxRounds: 3 },
    });
    const { id } = await requestWithdrawal(e);
    proxy.setFault({ mode: '500', match: { method: 'POST', path: WITHDRAW } });
    await e.approve(approver, id);
    const before = proxy.calls.length;
    // Five pages and the loop ask at once: one round runs.
    await Promise.all(Array.from({ length: 5 }, () => e.followUpRound(id, { force: true })));
    const lookups = proxy.calls.slice(before).filter((c) => c.method === 'GET');
    expect(lookups.length).toBeGreaterThan(0);
    expect(lookups.length).toBeLessThanOrEqual(2);
    // Not due yet: a round asked for by the loop does nothing.
    const quiet = proxy.calls.length;
    await e.followUpRound(id);
    expect(proxy.calls.length).toBe(quiet);
    const first = (await e.view(id))!.request;
    expect(first.nextFollowUpAt!.getTime() - clock).toBe(4_000);
    clock += WINDOW_MS + 1_000;
    // Confirmed absent after the window: nothing more to look for, it waits for a person.
    await e.followUpRound(id);
    const parked = (await e.view(id))!.request;
    expect(parked.confirmedAbsentAt).not.toBeNull();
    expect(parked.followUpParkedAt).not.toBeNull();
    expect(parked.nextFollowUpAt).toBeNull();
  });
});

describe('the emergency freeze', () => {
  it('holds retry, withdraw, swap, contract write and signing requests; nothing reaches the service', async () => {
    const e = engine();
    const float = wallet.addresses.find((a) => a.name === 'Operating float 1')!;
    const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
    const usdt = wallet.assets.find((a) => a.symbol === 'USDT')!;
    const approveAbi = erc20Abi.find((x) => x.type === 'function' && x.name === 'approve') as AbiFunction;
    const permit = buildPermit({
      name: 'USD Coin',
      version: '2',
      chainId: '11155111',
      verifyingContract: usdc.address,
      decimals: usdc.decimals,
      owner: float.address,
      spender: '0x00000000000000000000000000000000000000aa',
      value: '1',
      nonce: '0',
      deadline: String(Math.floor(Date.now() / 1000) + 86_400),
    });
    if (!permit.ok) throw new Error(permit.error);
    // A FAILED withdrawal to retry: far above the balance, it fails on chain.
    const failing = await sandboxPost(`/v1/wallets/${wallet.id}/withdraw`, {
      assets: [{ id: usdc.id, address: '0x00000000000000000000000000000000000000ef', amount: '987654321' }],
    });
    await sandbox.drain();
    const requests: Array<[EngineActor, string, unknown]> = [
      [requester, 'withdraw', payload()],
      [
        requester,
        'swap',
        {
          addressId: float.id,
          fromAssetId: usdc.id,
          fromSymbol: 'USDC',
          fromDecimals: usdc.decimals,
          toAssetId: usdt.id,
          toSymbol: 'USDT',
          toDecimals: usdt.decimals,
          amount: '1',
          order: 'CHEAPEST',
        },
      ],
      [
        admin,
        'contractWrite',
        {
          addressId: float.id,
          calls: [
            {
              address: usdc.address,
              method: 'approve',
              abi: [approveAbi],
              parameters: ['0x00000000000000000000000000000000000000cc', '1'],
            },
          ],
        },
      ],
      [admin, 'typedDataSign', { addressId: float.id, signer: float.address, ...permit.value }],
      [requester, 'retry', { transactionId: String(failing.json.data.id), addressId: null }],
    ];
    for (const [, type] of requests)
      await e.updatePolicy(admin, type, { approvals: 1, thresholdUsd: null, expirySeconds: 3600 });
    await e.setFreeze(admin, true);
    const before = proxy.calls.filter((c) => c.method === 'POST').length;
    for (const [who, type, body] of requests) {
      const created = await e.create(who, type, wallet.id, body);
      if (!created.ok) throw new Error(`${type}: ${created.error}`);
      const decider = who.id === admin.id ? approver2 : approver;
      const approved = await e.approve(decider, created.data.id, '000000');
      expect(approved.ok && approved.data.status).toBe('APPROVED');
      expect((await e.resubmit(decider, created.data.id)).ok).toBe(false);
    }
    await e.tick();
    // Reads (reviews, fee estimates) may go upstream; nothing that moves money or signs does.
    const posts = proxy.calls.filter((c) => c.method === 'POST').slice(before);
    expect(
      posts.filter((c) =>
        /\/(withdraw|withdraw\/sign|transactions\/retry|swaps\/execute|contracts\/write(\/sign)?|signing\/typed-data)$/.test(
          c.path,
        ),
      ),
    ).toEqual([]);
    await e.setFreeze(admin, false);
  });
});
