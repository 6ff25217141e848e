// The decisions on a request through the actions, with the approval engine over a real database and the
// sandbox: the permission comes from the request's kind, the requester cannot decide their own request, a
// reason is required to reject, and only the requester's side may cancel.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCustodyClient } from '@/lib/custody';
import { operationRequests, type Role } from '@/lib/db/schema';
import { trustRecipients } from '@/test/address-book';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { withSecondFactor } from '@/test/people';
import { createTestSandbox, TEST_SANDBOX_BASE_URL, type TestSandbox } from '@/test/sandbox';

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

const { provideServices } = await import('@/lib/server/services');
const { createUser } = await import('@/lib/server/users');
const { startSession } = await import('@/lib/server/sessions');
const { grantDecision, takeDecisionGrant } = await import('@/lib/server/factors/step-up');
const { getApprovalEngine } = await import('@/lib/server/approvals');
const { approveRequestAction, cancelRequestAction, markNotificationsReadAction, rejectRequestAction } =
  await import('./approvals');

let t: TestDatabase;
let sb: TestSandbox;
const people = {} as Record<
  'finance' | 'finance2' | 'support',
  { id: string; email: string; role: Role; sessionId: string }
>;

function connectionFor(walletId: string) {
  const wallet = sb.credentials.wallets.find((w) => w.id === walletId);
  return wallet
    ? { baseUrl: TEST_SANDBOX_BASE_URL, fetch: sb.sandbox.fetch, apiKey: wallet.apiKey, retries: 0 }
    : null;
}

beforeAll(async () => {
  [t, sb] = await Promise.all([createTestDatabase(), createTestSandbox()]);
  provideServices({
    config: { env: { UNKNOWN_OUTCOME_WINDOW_MS: 600_000 } },
    database: { db: t.db },
    custody: {
      connectionFor: async (walletId: string) => connectionFor(walletId),
      clientFor: async (walletId: string) => {
        const options = connectionFor(walletId);
        return options ? createCustodyClient(options) : null;
      },
    },
  } as never);
  // The withdrawals these tests decide pay an address book entry past its cooling-off (the destination policy).
  await trustRecipients(t.db, sb.credentials.wallets[0]!.id, ['0x00000000000000000000000000000000000000aa']);
  for (const [key, role] of [
    ['finance', 'finance'],
    ['finance2', 'finance'],
    ['support', 'support'],
  ] as const) {
    const created = await createUser(t.db, { email: `${key}@example.com`, name: key, role });
    if (!created.ok) throw new Error(created.error);
    // Signed in with a second factor just now: decisions need no step-up for five minutes.
    const session = await startSession(t.db, { userId: created.user.id, stepUpAt: Date.now() });
    people[key] = { id: created.user.id, email: created.user.email, role, sessionId: session.id };
  }
});
afterAll(async () => {
  provideServices(undefined);
  await Promise.all([t?.close(), sb?.close()]);
});

function signedInAs(who: keyof typeof people) {
  const person = people[who];
  state.user = { ...person, name: who, mustChangePassword: false };
}

/** A decision by the person signed in, with the second-factor proof it asks for. */
const decide = <R>(call: () => Promise<R>) => withSecondFactor(t.db, state.user!, call);

/** A withdrawal requested by finance, waiting for one approval. */
async function requestWithdrawal(): Promise<string> {
  const wallet = sb.credentials.wallets[0]!;
  const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
  const created = await (await getApprovalEngine()).create(people.finance, 'withdraw', wallet.id, {
    source: { kind: 'master' },
    items: [
      {
        assetId: usdc.id,
        symbol: usdc.symbol,
        decimals: usdc.decimals,
        address: '0x00000000000000000000000000000000000000aa',
        amount: '0.5',
      },
    ],
  });
  if (!created.ok) throw new Error(created.error);
  return created.data.id;
}

const statusOf = async (id: string) =>
  (await t.db.select().from(operationRequests).where(eq(operationRequests.id, id)))[0]?.status;

describe('approval actions', () => {
  beforeEach(() => {
    state.user = null;
  });

  it('refuses the requester and roles without the kind’s approve permission', async () => {
    const id = await requestWithdrawal();
    signedInAs('finance');
    expect(await decide(() => approveRequestAction({ requestId: id }))).toMatchObject({
      ok: false,
      error: 'You cannot approve or reject your own request.',
    });
    signedInAs('support');
    expect(await approveRequestAction({ requestId: id })).toMatchObject({ ok: false, status: 403 });
    expect(await rejectRequestAction({ requestId: id, reason: 'Not for support' })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await statusOf(id)).toBe('PENDING_APPROVAL');
  });

  it('asks for a reason before rejecting, then rejects with it', async () => {
    const id = await requestWithdrawal();
    signedInAs('finance2');
    expect(await rejectRequestAction({ requestId: id, reason: ' x ' })).toEqual({
      ok: false,
      error: 'Give a reason of at least 3 characters.',
      fieldErrors: { reason: 'Give a reason of at least 3 characters.' },
    });
    expect(await statusOf(id)).toBe('PENDING_APPROVAL');
    expect(
      await decide(() => rejectRequestAction({ requestId: id, reason: 'Wrong amount for this supplier' })),
    ).toEqual({
      ok: true,
      data: { status: 'REJECTED' },
    });
    expect(await statusOf(id)).toBe('REJECTED');
  });

  it('asks every decision for its own second-factor proof: bound to the request and the verdict, used once, in its session', async () => {
    const first = await requestWithdrawal();
    const second = await requestWithdrawal();
    signedInAs('finance2');
    // The session proved its factor just now, yet a decision asks again: the proof is bound to this decision.
    const asked = await approveRequestAction({ requestId: first });
    expect(asked).toMatchObject({
      ok: false,
      error: 'Confirm it is you to continue.',
      stepUp: { payloadHash: expect.stringMatching(/^[0-9a-f]{64}$/), each: true },
    });
    const hashOf = (result: unknown) => (result as { stepUp: { payloadHash: string } }).stepUp.payloadHash;
    const forFirst = hashOf(asked);
    const forSecond = hashOf(await approveRequestAction({ requestId: second }));
    expect(forSecond).not.toBe(forFirst);
    const me = people.finance2;

    // A proof for the first request does not approve the second; a proof of another session serves nobody.
    await grantDecision(t.db, { userId: me.id, sessionId: me.sessionId, payloadHash: forFirst });
    expect(await approveRequestAction({ requestId: second })).toMatchObject({ stepUp: { each: true } });
    const other = await startSession(t.db, { userId: me.id, stepUpAt: Date.now() });
    await grantDecision(t.db, { userId: me.id, sessionId: other.id, payloadHash: forSecond });
    expect(await approveRequestAction({ requestId: second })).toMatchObject({ stepUp: { each: true } });

    // A proof to approve does not reject, and a reason is part of what a rejection's proof is bound to.
    const rejectAsked = await rejectRequestAction({ requestId: first, reason: 'Wrong supplier' });
    expect(hashOf(rejectAsked)).not.toBe(forFirst);
    await grantDecision(t.db, { userId: me.id, sessionId: me.sessionId, payloadHash: hashOf(rejectAsked) });
    expect(await rejectRequestAction({ requestId: first, reason: 'Another reason' })).toMatchObject({
      stepUp: { each: true },
    });

    // The first request's proof approves it, and is used up by it.
    expect(await approveRequestAction({ requestId: first })).toEqual({
      ok: true,
      data: { status: 'SUBMITTED' },
    });
    expect(await statusOf(first)).toBe('SUBMITTED');
    expect(
      await takeDecisionGrant(t.db, { userId: me.id, sessionId: me.sessionId, payloadHash: forFirst }),
    ).toBe(false);
    expect(await statusOf(second)).toBe('PENDING_APPROVAL');
  });

  it('says why a decision is refused anyway before asking for the second factor, and keeps the proof', async () => {
    const id = await requestWithdrawal();
    signedInAs('finance');
    // The requester: no code is asked for a decision that cannot count.
    expect(await rejectRequestAction({ requestId: id, reason: 'Changed my mind' })).toEqual({
      ok: false,
      error: 'You cannot approve or reject your own request.',
      status: 403,
    });
    signedInAs('finance2');
    const asked = await approveRequestAction({ requestId: id });
    const payloadHash = (asked as { stepUp: { payloadHash: string } }).stepUp.payloadHash;
    await grantDecision(t.db, {
      userId: people.finance2.id,
      sessionId: people.finance2.sessionId,
      payloadHash,
    });
    // Expired meanwhile: refused as expired, and the proof is not spent on it.
    await t.db
      .update(operationRequests)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(operationRequests.id, id));
    expect(await approveRequestAction({ requestId: id })).toMatchObject({
      ok: false,
      error: 'This request has expired and can no longer be approved.',
    });
    expect(
      await takeDecisionGrant(t.db, {
        userId: people.finance2.id,
        sessionId: people.finance2.sessionId,
        payloadHash,
      }),
    ).toBe(true);
  });

  it('lets only the requester’s side cancel, and refuses a request id that is not one', async () => {
    const id = await requestWithdrawal();
    signedInAs('support');
    expect(await cancelRequestAction({ requestId: id })).toMatchObject({ ok: false, status: 403 });
    signedInAs('finance');
    expect(await cancelRequestAction({ requestId: 'not-a-request' })).toEqual({
      ok: false,
      error: 'Unknown request.',
      fieldErrors: { requestId: 'Unknown request.' },
    });
    expect(await cancelRequestAction({ requestId: id })).toMatchObject({ ok: true });
    expect(await statusOf(id)).toBe('CANCELLED');
  });

  it('marks notifications read for a signed-in person only', async () => {
    expect(await markNotificationsReadAction(undefined)).toMatchObject({ ok: false, status: 401 });
    signedInAs('finance');
    expect(await markNotificationsReadAction(undefined)).toEqual({ ok: true, data: undefined });
  });
});
