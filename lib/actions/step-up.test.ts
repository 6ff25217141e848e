// Step-up in the action wrapper, against a real database: a stale check refuses with the payload's hash, the
// second factor clears it for five minutes, and each use is audited with the hash it was bound to.
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, loginAttempts, userSessions } from '@/lib/db/schema';
import type { ConsoleServices } from '@/lib/server/services';
import { createTestDatabase, type TestDatabase } from '@/test/db';

const state = vi.hoisted(() => ({
  user: null as null | {
    id: string;
    email: string;
    name: string;
    role: string;
    mustChangePassword: boolean;
    sessionId: string;
  },
}));

vi.mock('@/lib/server/auth', () => ({ auth: async () => (state.user ? { user: state.user } : null) }));
vi.mock('next/headers', () => ({ headers: async () => new Headers() }));

const { provideServices } = await import('@/lib/server/services');
const { createUser } = await import('@/lib/server/users');
const { startSession } = await import('@/lib/server/sessions');
const { hashPayload } = await import('@/lib/server/approvals/hash');
const { enrollTotp, totpCodeAt, verifyTotp } = await import('@/lib/server/factors/totp');
const { forgetStepUpAction, removeFactorAction, verifyStepUpAction } = await import('./factors');
const { checkStepUp } = await import('./define-action');
const { forgetStepUp, takeDecisionGrant } = await import('@/lib/server/factors/step-up');

const key = randomBytes(32);
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  provideServices({
    database: t.handle,
    config: { origin: 'https://console.example.com', encryptionKey: key },
  } as ConsoleServices);
});
afterAll(async () => {
  provideServices(undefined);
  await t.close();
});

async function financeWithTwoApps(stepUpAt: number | null) {
  const created = await createUser(t.db, {
    email: `fin-${crypto.randomUUID()}@example.com`,
    name: 'Fin',
    role: 'finance',
  });
  if (!created.ok) throw new Error(created.error);
  const user = created.user;
  const past = Date.now() - 10 * 60_000;
  const apps = [];
  for (const label of ['Phone', 'Tablet']) {
    const app = await enrollTotp(t.db, key, user, label);
    // Confirmed ten minutes ago, so the codes of now are still unused.
    await verifyTotp(t.db, key, user.id, totpCodeAt(app.secret, past), { now: past, factorId: app.factorId });
    apps.push(app);
    // One enrolment at a time: the second replaces an unconfirmed first, so confirm before the next.
  }
  const session = await startSession(t.db, { userId: user.id, stepUpAt });
  state.user = { ...user, mustChangePassword: false, sessionId: session.id };
  return { user, apps, sessionId: session.id };
}

const entries = (action: string, email: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.actorEmail, email)));

describe('step-up in defineAction', () => {
  it('refuses a stale session with the payload hash, then runs once the factor is proved', async () => {
    const { user, apps, sessionId } = await financeWithTwoApps(null);
    const target = apps[1]!.factorId;
    const refused = await removeFactorAction({ factorId: target });
    const payloadHash = hashPayload({ action: 'remove factor', payload: { factorId: target } });
    expect(refused).toEqual({ ok: false, error: 'Confirm it is you to continue.', stepUp: { payloadHash } });
    // Bound to the payload: another factor id is another hash.
    const other = await removeFactorAction({ factorId: apps[0]!.factorId });
    expect(!other.ok && other.stepUp?.payloadHash).not.toBe(payloadHash);
    expect((await entries('auth.step_up_required', user.email)).map((e) => e.input)).toContainEqual({
      action: 'remove factor',
      payloadHash,
    });

    const wrong = await verifyStepUpAction({ payloadHash, code: '000000' });
    expect(wrong).toMatchObject({ ok: false, fieldErrors: { code: expect.any(String) } });
    const failures = await t.db.select().from(loginAttempts).where(eq(loginAttempts.email, user.email));
    expect(failures.filter((a) => !a.succeeded)).toHaveLength(1);

    expect(await verifyStepUpAction({ payloadHash, code: totpCodeAt(apps[0]!.secret, Date.now()) })).toEqual({
      ok: true,
      data: undefined,
    });
    const [session] = await t.db.select().from(userSessions).where(eq(userSessions.id, sessionId));
    expect(session?.stepUpAt).not.toBeNull();
    expect((await entries('auth.step_up', user.email)).map((e) => [e.outcome, e.input])).toContainEqual([
      'success',
      { payloadHash, method: 'totp' },
    ]);

    expect(await removeFactorAction({ factorId: target })).toEqual({ ok: true, data: { label: 'Tablet' } });
    const used = await entries('auth.step_up_used', user.email);
    expect(used.at(-1)?.input).toMatchObject({
      action: 'remove factor',
      payloadHash,
      stepUpAt: expect.any(String),
    });
    expect((await entries('factor.remove', user.email)).map((e) => e.outcome)).toEqual(['success']);
  });

  it('asks again when the last check is older than five minutes, or when the person asks for it', async () => {
    const { apps } = await financeWithTwoApps(Date.now() - 5 * 60_000 - 1_000);
    expect(await removeFactorAction({ factorId: apps[1]!.factorId })).toMatchObject({
      ok: false,
      stepUp: {},
    });

    const fresh = await financeWithTwoApps(Date.now() - 60_000);
    expect(await forgetStepUpAction(undefined)).toEqual({ ok: true, data: undefined });
    expect(await removeFactorAction({ factorId: fresh.apps[1]!.factorId })).toMatchObject({
      ok: false,
      stepUp: {},
    });
  });

  it('turns a right code into one grant for its payload hash, in its session, used once and for minutes', async () => {
    const { user, apps, sessionId } = await financeWithTwoApps(Date.now());
    const payloadHash = hashPayload({ action: 'approve request', payload: { requestId: 'r-1' } });
    const use = (hash: string, session = sessionId, now?: number) =>
      takeDecisionGrant(t.db, {
        userId: user.id,
        sessionId: session,
        payloadHash: hash,
        ...(now ? { now } : {}),
      });
    // A fresh session is no proof for a decision.
    expect(await use(payloadHash)).toBe(false);
    expect(await verifyStepUpAction({ payloadHash, code: '000000' })).toMatchObject({ ok: false });
    expect(await use(payloadHash)).toBe(false);

    expect(
      (await verifyStepUpAction({ payloadHash, code: totpCodeAt(apps[0]!.secret, Date.now()) })).ok,
    ).toBe(true);
    const another = hashPayload({ action: 'approve request', payload: { requestId: 'r-2' } });
    expect(await use(another)).toBe(false);
    expect(await use(payloadHash, crypto.randomUUID())).toBe(false);
    expect(await use(payloadHash, sessionId, Date.now() + 5 * 60_000 + 1_000)).toBe(false);
    // Both uses at once: exactly one wins.
    expect(await Promise.all([use(payloadHash), use(payloadHash)])).toEqual(
      expect.arrayContaining([true, false]),
    );
    expect(await use(payloadHash)).toBe(false);
  });

  it('does not take a code twice, nor a code for a step-up without a session', async () => {
    const { apps } = await financeWithTwoApps(null);
    const payloadHash = hashPayload({ action: 'remove factor', payload: { factorId: apps[1]!.factorId } });
    const code = totpCodeAt(apps[0]!.secret, Date.now());
    expect((await verifyStepUpAction({ payloadHash, code })).ok).toBe(true);
    expect((await verifyStepUpAction({ payloadHash, code })).ok).toBe(false);
    state.user = null;
    expect(await verifyStepUpAction({ payloadHash, code })).toMatchObject({ ok: false, status: 401 });
  });
});

describe('checkStepUp and the five-minute window', () => {
  const T = new Date('2026-11-20T10:00:00.000Z').getTime();
  const MINUTE = 60_000;
  afterEach(() => vi.useRealTimers());

  /** An admin whose session last proved a factor at `stepUpAt` (null: never, or asked to be asked again). */
  async function adminSession(stepUpAt: number | null) {
    const created = await createUser(t.db, {
      email: `adm-${crypto.randomUUID()}@example.com`,
      name: 'Adm',
      role: 'admin',
    });
    if (!created.ok) throw new Error(created.error);
    const session = await startSession(t.db, { userId: created.user.id, now: T - 30 * MINUTE, stepUpAt });
    const actor = {
      id: created.user.id,
      email: created.user.email,
      name: created.user.name,
      role: 'admin' as const,
      requestId: null,
      sessionId: session.id,
    };
    return { actor, sessionId: session.id };
  }

  // Only the clock is faked: the database's own timers run as usual.
  const at = (now: number) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
  };

  const payload = { change: 'freeze' };
  const payloadHash = () => hashPayload({ action: 'freeze toggle', payload });

  it('refuses a check six minutes old with the hash of the payload the next check is bound to', async () => {
    const { actor } = await adminSession(T - 6 * MINUTE);
    at(T);
    const refused = await checkStepUp(actor, 'freeze toggle', payload, 'console');
    expect(refused).toEqual({
      ok: false,
      error: 'Confirm it is you to continue.',
      stepUp: { payloadHash: payloadHash() },
    });
    expect((await entries('auth.step_up_required', actor.email)).map((e) => [e.outcome, e.input])).toEqual([
      ['refused', { action: 'freeze toggle', payloadHash: payloadHash() }],
    ]);
    expect(await entries('auth.step_up_used', actor.email)).toEqual([]);
  });

  it('lets a check four minutes old through, audited with the payload hash and the time of the check', async () => {
    const { actor } = await adminSession(T - 4 * MINUTE);
    at(T);
    expect(await checkStepUp(actor, 'freeze toggle', payload, 'console')).toBeNull();
    expect((await entries('auth.step_up_used', actor.email)).map((e) => e.input)).toEqual([
      {
        action: 'freeze toggle',
        payloadHash: payloadHash(),
        stepUpAt: new Date(T - 4 * MINUTE).toISOString(),
      },
    ]);
    expect(await entries('auth.step_up_required', actor.email)).toEqual([]);
  });

  it('holds for exactly five minutes: the same session passes at 5:00 and is asked again a moment later', async () => {
    const { actor } = await adminSession(T);
    at(T + 5 * MINUTE);
    expect(await checkStepUp(actor, 'freeze toggle', payload, 'console')).toBeNull();
    at(T + 5 * MINUTE + 1);
    expect(await checkStepUp(actor, 'freeze toggle', payload, 'console')).toMatchObject({
      ok: false,
      stepUp: { payloadHash: payloadHash() },
    });
  });

  it('refuses a check dated in the future (a clock moved back) rather than trusting it', async () => {
    const { actor } = await adminSession(T + MINUTE);
    at(T);
    expect(await checkStepUp(actor, 'freeze toggle', payload, 'console')).toMatchObject({ ok: false });
  });

  it('"ask me again" leaves the session exactly as a stale check does', async () => {
    const stale = await adminSession(T - 6 * MINUTE);
    const forgotten = await adminSession(T - MINUTE);
    at(T);
    expect(await checkStepUp(forgotten.actor, 'freeze toggle', payload, 'console')).toBeNull();
    await forgetStepUp(t.db, forgotten.sessionId);
    const [row] = await t.db.select().from(userSessions).where(eq(userSessions.id, forgotten.sessionId));
    expect(row?.stepUpAt).toBeNull();
    expect(await checkStepUp(forgotten.actor, 'freeze toggle', payload, 'console')).toEqual(
      await checkStepUp(stale.actor, 'freeze toggle', payload, 'console'),
    );
  });
});
