// "No one person moves money or loosens the rules", against an insider: the paths an admin took alone (reverse,
// transitive, two accounts of one person, an API token's secret through a chain, disabling the other admin, the
// command line), and the first half of a randomized search (test/insider-search.ts; the second half is
// independence-search.integration.test.ts, so both workers run it): one actor performs seeded random sequences of
// user, role, token, policy and money operations with every credential they could have seen, while honest admins
// approve the harmless-looking account changes; no request of the sequence may end approved with every party one
// of the actor's accounts. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL (scripts/test.sh).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Role } from '@/lib/db/schema';
import {
  type InsiderConsole,
  NOT_INDEPENDENT,
  openInsiderConsole,
  type Person,
  SEARCHED_KINDS,
  SEQUENCES,
  STEPS,
  searchSequences,
} from '@/test/insider-search';
import { acceptFromMailbox } from '@/test/invitations';
import { TEST_ENCRYPTION_KEY } from '@/test/services';

const state = vi.hoisted(() => ({ user: null as null | { id: string } }));
vi.mock('@/lib/server/auth', () => ({ auth: async () => (state.user ? { user: state.user } : null) }));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));
// Nobody signs in with a password here: a cheap stand-in for bcrypt (cost 12, about 250 ms a hash) keeps thousands
// of accounts affordable.
vi.mock('@/lib/server/passwords', async (original) => ({
  ...(await original<typeof import('@/lib/server/passwords')>()),
  hashPassword: async (password: string) => `test:${password}`,
}));

const { findUserById } = await import('@/lib/server/users');
const { getApprovalEngine } = await import('@/lib/server/approvals');
const { bootstrapAdmin } = await import('./admin-quorum');
const { addUserAction, disableUserAction, enableUserAction } = await import('@/lib/actions/users');
const { updatePolicyAction } = await import('@/lib/actions/policy');

let world: InsiderConsole;

beforeAll(async () => {
  world = await openInsiderConsole((p) => {
    state.user = p;
  }, 'independence-test');
}, 120_000);

afterAll(async () => {
  await world?.close();
});

const unique = (prefix: string) => `${prefix}-${crypto.randomUUID()}@example.com`;
const root = (prefix: string, role: Role) => world.root(prefix, role);
const as = (p: Person) => world.as(p);
const approve = (p: Person, requestId: string) => world.approve(p, requestId);
const signedIn = (user: { id: string; email: string; name: string; role: string }) => world.signedIn(user);
const requestIdOf = (result: { ok: boolean; data?: unknown; error?: string }) => world.requestIdOf(result);
const statusOf = (id: string) => world.statusOf(id);
const withdrawal = () => world.withdrawal();
const addThrough = (by: Person, approver: Person, role: Role) => world.addThrough(by, approver, role);
const tokenThrough = (by: Person, approver: Person, name: string) => world.tokenThrough(by, approver, name);

describe('the paths one admin took alone', () => {
  let a: Person;
  let b: Person;
  let finance: Person;

  beforeAll(async () => {
    a = await root('attacker', 'admin');
    b = await root('honest', 'admin');
    finance = await root('finance', 'finance');
  });

  it('reverse: a user the admin asked for (at a mailbox they read) never approves the admin’s withdrawal, nor the admin theirs', async () => {
    const f = await addThrough(a, b, 'finance');
    const engine = await getApprovalEngine();
    const byF = await engine.create(f, 'withdraw', world.wallet.id, withdrawal());
    if (!byF.ok) throw new Error(byF.error);
    expect(await approve(a, byF.data.id)).toMatchObject({
      ok: false,
      error: expect.stringMatching(NOT_INDEPENDENT),
    });
    const byA = await engine.create(a, 'withdraw', world.wallet.id, withdrawal());
    if (!byA.ok) throw new Error(byA.error);
    expect(await approve(f, byA.data.id)).toMatchObject({
      ok: false,
      error: expect.stringMatching(NOT_INDEPENDENT),
    });
    expect([await statusOf(byF.data.id), await statusOf(byA.data.id)]).toEqual([
      'PENDING_APPROVAL',
      'PENDING_APPROVAL',
    ]);
    // An independent person may.
    expect(await approve(finance, byF.data.id)).toMatchObject({ ok: true });
  });

  it('transitive: an admin asked for by an admin the attacker asked for never approves the attacker’s requests', async () => {
    const x = await addThrough(a, b, 'admin');
    // As X, A asks for Y; A approves (A is independent of X? No: A controls X, so a third admin must).
    as(x);
    const yEmail = unique('y');
    const id = requestIdOf(await addUserAction({ email: yEmail, name: 'Y', role: 'admin' }));
    expect(await approve(a, id)).toMatchObject({ ok: false, error: expect.stringMatching(NOT_INDEPENDENT) });
    expect(await approve(b, id)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
    // X asked for Y at a mailbox X (that is, A) reads.
    const y = await signedIn(await acceptFromMailbox(world.t.db, TEST_ENCRYPTION_KEY, world.dataDir, yEmail));
    as(a);
    const policy = requestIdOf(
      await updatePolicyAction({
        operationType: 'retry',
        approvals: '1',
        thresholdUsd: '',
        expiryMinutes: '45',
      }),
    );
    const refused = await approve(y, policy);
    expect(refused).toMatchObject({ ok: false, status: 403 });
    expect(refused.ok ? '' : refused.error).toMatch(/attacker-.*\(the requester\) controls your account/);
    expect(await statusOf(policy)).toBe('PENDING_APPROVAL');
  });

  it('two accounts of one person: the admin asks for two finance users, and one never approves the other', async () => {
    const f1 = await addThrough(a, b, 'finance');
    const f2 = await addThrough(a, b, 'finance');
    const engine = await getApprovalEngine();
    const made = await engine.create(f1, 'withdraw', world.wallet.id, withdrawal());
    if (!made.ok) throw new Error(made.error);
    expect(await approve(f2, made.data.id)).toMatchObject({
      ok: false,
      error: expect.stringMatching(NOT_INDEPENDENT),
    });
    expect(await statusOf(made.data.id)).toBe('PENDING_APPROVAL');
  });

  it('an API token’s secret through a chain: nobody the holder asked for approves the token’s requests', async () => {
    const token = await tokenThrough(a, b, `chain-${crypto.randomUUID()}`);
    const deputy = await addThrough(a, b, 'finance');
    const engine = await getApprovalEngine();
    const made = await engine.create(token, 'withdraw', world.wallet.id, withdrawal());
    if (!made.ok) throw new Error(made.error);
    expect(await approve(deputy, made.data.id)).toMatchObject({ ok: false, status: 403 });
    expect(await approve(a, made.data.id)).toMatchObject({ ok: false, status: 403 });
    expect(await statusOf(made.data.id)).toBe('PENDING_APPROVAL');
    expect(await approve(finance, made.data.id)).toMatchObject({ ok: true });
  });

  it('disabling the other admin is refused while it would leave too few independent admins, else a request the others decide; adding an admin is never lone', async () => {
    // a and b are the only independent admins (everyone else a asked for): disabling b would leave one.
    as(a);
    expect(await disableUserAction({ userId: b.id })).toEqual({
      ok: false,
      error: expect.stringMatching(/^This would leave 1 independent admin; the approval policy needs 2/),
    });
    // With a third independent admin, it is a request: never the requester's to approve, carried out by another.
    const c = await root('third', 'admin');
    as(a);
    const id = requestIdOf(await disableUserAction({ userId: b.id }));
    expect((await findUserById(world.t.db, b.id))?.disabledAt).toBeNull();
    expect(await approve(a, id)).toMatchObject({ ok: false, status: 403 });
    expect(await approve(c, id)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
    expect((await findUserById(world.t.db, b.id))?.disabledAt).not.toBeNull();
    as(a);
    expect(await approve(c, requestIdOf(await enableUserAction({ userId: b.id })))).toMatchObject({
      ok: true,
    });
    b = await signedIn((await findUserById(world.t.db, b.id))!);
    // Adding an admin is a request too, and the command line refuses once the console has its admins.
    as(a);
    requestIdOf(await addUserAction({ email: unique('deputy'), name: 'Deputy', role: 'admin' }));
    expect(
      await bootstrapAdmin(world.t.db, { email: unique('cli-deputy'), name: 'D', role: 'admin' }),
    ).toMatchObject({
      ok: false,
    });
  });
});

const HALF = Math.ceil(SEQUENCES / 2);

describe('one insider with every credential they could have seen', () => {
  it(`never completes a money request or a configuration change with only their own accounts (sequences 1 to ${HALF} of ${SEQUENCES}, ${STEPS} seeded steps each)`, async () => {
    const { refusals, completed, kinds } = await searchSequences(world, 0, HALF);
    // The search reached the interesting places: the actor tried their own accounts (more than once a sequence),
    // and honest approvals let some of their requests through.
    expect(refusals).toBeGreaterThan(HALF);
    expect(completed).toBeGreaterThan(0);
    // Every kind of request was filed: account, credential, token, rule and money changes alike.
    expect([...kinds].sort()).toEqual([...SEARCHED_KINDS].sort());
  }, 900_000);
});
