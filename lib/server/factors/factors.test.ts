// Second factors against a real database: authenticator apps (RFC 6238, a code accepted once), passkeys through
// a software authenticator, sign-in's second step and its lockout, the demo secrets, and the last-factor rule.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authChallenges, loginAttempts, type Role, userFactors } from '@/lib/db/schema';
import { createUser } from '@/lib/server/users';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { SoftwareAuthenticator } from '@/test/software-authenticator';
import { demoSecretFor } from '../../../e2e/helpers/demo-totp';
import { createChallenge, takeChallenge } from './challenges';
import { DEMO_FACTORS_PER_USER, demoTotpSecret, seedDemoFactors } from './demo';
import { assertionOptions, registerPasskey, registrationOptions, verifyPasskey } from './passkeys';
import { relyingParty } from './relying-party';
import { beginSecondStep, completeSecondStep } from './sign-in';
import { listFactors, removeFactor, requiresSecondFactor } from './store';
import { enrollTotp, totpCodeAt, verifyTotp } from './totp';

const key = randomBytes(32);
const ORIGIN = 'https://console.example.com';
const rp = relyingParty(ORIGIN);
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.close();
});

async function person(role: Role = 'finance') {
  const created = await createUser(t.db, {
    email: `${role}-${crypto.randomUUID()}@example.com`,
    name: role,
    role,
  });
  if (!created.ok) throw new Error(created.error);
  return created.user;
}

// A moment in the middle of a 30 s step, so "one step either side" is unambiguous.
const T0 = 1_900_000_005_000;
const STEP = 30_000;

describe('authenticator apps', () => {
  it('enrols unconfirmed, confirms with a first code, and keeps the secret sealed', async () => {
    const user = await person();
    const { factorId, secret, uri } = await enrollTotp(t.db, key, user, 'Phone');
    expect(uri).toMatch(/^otpauth:\/\/totp\/.*secret=[A-Z2-7]+/);
    expect(uri).toContain('issuer=Custody%20Console');
    const [row] = await t.db.select().from(userFactors).where(eq(userFactors.id, factorId));
    expect(row?.confirmedAt).toBeNull();
    expect(row?.secretSealed).not.toContain(secret);
    // An unconfirmed factor does not count for sign-in or step-up.
    expect(await verifyTotp(t.db, key, user.id, totpCodeAt(secret, T0), { now: T0 })).toBeNull();
    expect(await verifyTotp(t.db, key, user.id, totpCodeAt(secret, T0), { now: T0, factorId })).toEqual({
      factorId,
    });
    const [after] = await t.db.select().from(userFactors).where(eq(userFactors.id, factorId));
    expect(after?.confirmedAt).not.toBeNull();
    expect((await listFactors(t.db, user.id)).map((f) => [f.label, f.confirmed])).toEqual([['Phone', true]]);
  });

  it('accepts a code once, never an older one, and one step either side only', async () => {
    const user = await person();
    const { factorId, secret } = await enrollTotp(t.db, key, user, 'Phone');
    await verifyTotp(t.db, key, user.id, totpCodeAt(secret, T0 - 10 * STEP), {
      now: T0 - 10 * STEP,
      factorId,
    });

    const previous = totpCodeAt(secret, T0 - STEP);
    const current = totpCodeAt(secret, T0);
    const next = totpCodeAt(secret, T0 + STEP);
    expect(await verifyTotp(t.db, key, user.id, totpCodeAt(secret, T0 - 2 * STEP), { now: T0 })).toBeNull();
    expect(await verifyTotp(t.db, key, user.id, totpCodeAt(secret, T0 + 2 * STEP), { now: T0 })).toBeNull();
    expect(await verifyTotp(t.db, key, user.id, '12345', { now: T0 })).toBeNull();
    expect(await verifyTotp(t.db, key, user.id, previous, { now: T0 })).toEqual({ factorId });
    expect(await verifyTotp(t.db, key, user.id, previous, { now: T0 })).toBeNull();
    expect(await verifyTotp(t.db, key, user.id, current, { now: T0 })).toEqual({ factorId });
    expect(await verifyTotp(t.db, key, user.id, current, { now: T0 + 1000 })).toBeNull();
    expect(await verifyTotp(t.db, key, user.id, next, { now: T0 })).toEqual({ factorId });
    // The step before the last accepted one is refused even while it is within the window.
    expect(await verifyTotp(t.db, key, user.id, current, { now: T0 + STEP })).toBeNull();
  });

  it('lets only one of two racing requests use a code', async () => {
    const user = await person();
    const { factorId, secret } = await enrollTotp(t.db, key, user, 'Phone');
    await verifyTotp(t.db, key, user.id, totpCodeAt(secret, T0 - 5 * STEP), { now: T0 - 5 * STEP, factorId });
    const code = totpCodeAt(secret, T0);
    const results = await Promise.all([
      verifyTotp(t.db, key, user.id, code, { now: T0 }),
      verifyTotp(t.db, key, user.id, code, { now: T0 }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('does not open a secret under another factor id or another key', async () => {
    const user = await person();
    const { factorId, secret } = await enrollTotp(t.db, key, user, 'Phone');
    const [row] = await t.db.select().from(userFactors).where(eq(userFactors.id, factorId));
    const other = await enrollTotp(t.db, key, await person(), 'Other');
    await t.db
      .update(userFactors)
      .set({ secretSealed: row!.secretSealed })
      .where(eq(userFactors.id, other.factorId));
    expect(
      await verifyTotp(t.db, key, other.factorId, totpCodeAt(secret, T0), {
        now: T0,
        factorId: other.factorId,
      }),
    ).toBeNull();
    expect(
      await verifyTotp(t.db, randomBytes(32), user.id, totpCodeAt(secret, T0), { now: T0, factorId }),
    ).toBeNull();
  });
});

describe('passkeys', () => {
  async function enrolledPasskey(user: { id: string; email: string; name: string }) {
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const challenge = await createChallenge(t.db, { subject: user.id, purpose: 'register' });
    const options = await registrationOptions(t.db, rp, user, challenge.challenge);
    expect(options.rp.id).toBe('console.example.com');
    const taken = await takeChallenge(t.db, challenge.id, 'register', user.id);
    expect(taken?.challenge).toBe(challenge.challenge);
    const registered = await registerPasskey(
      t.db,
      rp,
      user.id,
      taken!.challenge,
      authenticator.register(options),
      'Laptop',
    );
    expect(registered).not.toBeNull();
    return { authenticator, factorId: registered!.factorId };
  }

  it('registers a passkey and refuses one made for another challenge or origin', async () => {
    const user = await person();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const challenge = await createChallenge(t.db, { subject: user.id, purpose: 'register' });
    const options = await registrationOptions(t.db, rp, user, challenge.challenge);
    const other = await createChallenge(t.db, { subject: user.id, purpose: 'register' });
    expect(
      await registerPasskey(t.db, rp, user.id, other.challenge, authenticator.register(options), 'x'),
    ).toBeNull();
    expect(
      await registerPasskey(
        t.db,
        rp,
        user.id,
        challenge.challenge,
        authenticator.register(options, 'https://evil.example'),
        'x',
      ),
    ).toBeNull();
    expect(await listFactors(t.db, user.id)).toEqual([]);
    await enrolledPasskey(user);
    const [factor] = await listFactors(t.db, user.id);
    expect(factor).toMatchObject({ kind: 'passkey', label: 'Laptop', confirmed: true });
  });

  it('verifies an assertion against its challenge once, and moves the counter on', async () => {
    const user = await person();
    const { authenticator, factorId } = await enrolledPasskey(user);
    const challenge = await createChallenge(t.db, { subject: user.id, purpose: 'step-up' });
    const options = await assertionOptions(t.db, rp, user.id, challenge.challenge);
    expect(options?.allowCredentials?.map((c) => c.id)).toEqual([authenticator.id]);
    const answer = authenticator.assert(options!);
    const wrongChallenge = authenticator.assert({
      ...options!,
      challenge: randomBytes(32).toString('base64url'),
    });
    expect(await verifyPasskey(t.db, rp, user.id, challenge.challenge, wrongChallenge)).toBeNull();
    expect(await verifyPasskey(t.db, rp, user.id, challenge.challenge, answer)).toEqual({ factorId });
    // The same answer again: its counter no longer grows.
    expect(await verifyPasskey(t.db, rp, user.id, challenge.challenge, answer)).toBeNull();
    const stranger = await person();
    expect(
      await verifyPasskey(t.db, rp, stranger.id, challenge.challenge, authenticator.assert(options!)),
    ).toBeNull();
    // A one-time challenge is consumed by its first taker.
    expect(await takeChallenge(t.db, challenge.id, 'step-up', user.id)).toBeDefined();
    expect(await takeChallenge(t.db, challenge.id, 'step-up', user.id)).toBeUndefined();
  });

  it('takes the relying party from CONSOLE_ORIGIN, or its loopback twin on one machine', () => {
    expect(relyingParty('http://127.0.0.1:3100', 'http://localhost:3100')).toMatchObject({
      rpID: 'localhost',
      origin: 'http://localhost:3100',
    });
    expect(relyingParty('http://127.0.0.1:3100', 'http://localhost:3999').rpID).toBe('127.0.0.1');
    expect(relyingParty(ORIGIN, 'https://evil.example')).toMatchObject({
      rpID: 'console.example.com',
      origin: ORIGIN,
    });
    expect(relyingParty(ORIGIN, 'not a url').origin).toBe(ORIGIN);
  });
});

describe("sign-in's second step", () => {
  it('asks approvers only', () => {
    expect(requiresSecondFactor('admin')).toBe(true);
    expect(requiresSecondFactor('finance')).toBe(true);
    expect(requiresSecondFactor('support')).toBe(false);
    expect(requiresSecondFactor('viewer')).toBe(false);
  });

  it('completes with a code once, and counts wrong codes towards the lockout', async () => {
    const user = await person();
    const { factorId, secret } = await enrollTotp(t.db, key, user, 'Phone');
    await verifyTotp(t.db, key, user.id, totpCodeAt(secret, Date.now() - 4 * STEP), {
      factorId,
      now: Date.now() - 4 * STEP,
    });

    const pending = await beginSecondStep(t.db, user.id);
    expect(pending.methods).toEqual(['totp']);
    for (let i = 0; i < 4; i++) {
      expect(
        await completeSecondStep(t.db, key, rp, {
          pendingId: pending.pendingId,
          method: 'totp',
          code: '000000',
        }),
      ).toMatchObject({ ok: false, reason: 'invalid' });
    }
    const done = await completeSecondStep(t.db, key, rp, {
      pendingId: pending.pendingId,
      method: 'totp',
      code: totpCodeAt(secret, Date.now()),
    });
    expect(done).toMatchObject({ ok: true, method: 'totp' });
    // The pending sign-in is gone once used.
    const again = await completeSecondStep(t.db, key, rp, {
      pendingId: pending.pendingId,
      method: 'totp',
      code: totpCodeAt(secret, Date.now() + STEP),
    });
    expect(again).toEqual({ ok: false, reason: 'expired' });
    const attempts = await t.db.select().from(loginAttempts).where(eq(loginAttempts.email, user.email));
    expect(attempts.map((a) => a.succeeded).sort()).toEqual([false, false, false, false, true]);

    const locked = await beginSecondStep(t.db, user.id);
    const outcomes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await completeSecondStep(t.db, key, rp, {
        pendingId: locked.pendingId,
        method: 'totp',
        code: '000000',
      });
      outcomes.push(r.ok ? 'ok' : r.reason);
    }
    expect(outcomes).toEqual(['invalid', 'invalid', 'invalid', 'invalid', 'locked']);
    // Locked: even the right code is refused, and the pending sign-in is dropped.
    const rows = await t.db.select().from(authChallenges).where(eq(authChallenges.id, locked.pendingId));
    expect(rows).toEqual([]);
  });

  it('lets a person without a factor enrol one to finish, and only then', async () => {
    const user = await person('admin');
    const pending = await beginSecondStep(t.db, user.id);
    expect(pending.methods).toEqual([]);
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const [challenge] = await t.db
      .select()
      .from(authChallenges)
      .where(eq(authChallenges.id, pending.pendingId));
    const options = await registrationOptions(t.db, rp, user, challenge!.challenge);
    const done = await completeSecondStep(t.db, key, rp, {
      pendingId: pending.pendingId,
      method: 'enrol-passkey',
      response: authenticator.register(options) as never,
      label: 'Laptop',
    });
    expect(done).toMatchObject({ ok: true, method: 'enrol-passkey' });

    // Now enrolled: the next sign-in needs that passkey, not another enrolment.
    const next = await beginSecondStep(t.db, user.id);
    expect(next.methods).toEqual(['passkey']);
    const other = await enrollTotp(t.db, key, user, 'Sneaky');
    const refused = await completeSecondStep(t.db, key, rp, {
      pendingId: next.pendingId,
      method: 'enrol-totp',
      factorId: other.factorId,
      code: totpCodeAt(other.secret, Date.now()),
    });
    expect(refused).toMatchObject({ ok: false, reason: 'invalid' });
    const [nextChallenge] = await t.db
      .select()
      .from(authChallenges)
      .where(eq(authChallenges.id, next.pendingId));
    const assertion = authenticator.assert({ challenge: nextChallenge!.challenge });
    expect(
      await completeSecondStep(t.db, key, rp, {
        pendingId: next.pendingId,
        method: 'passkey',
        response: assertion as never,
      }),
    ).toMatchObject({ ok: true });
  });
});

describe('demo factors and removal', () => {
  it('derives each demo secret from the seed and the email, the same way the end-to-end tests do', () => {
    const a = demoTotpSecret('custody-console-sandbox', 'admin@example.com');
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(demoTotpSecret('custody-console-sandbox', ' Admin@Example.com ')).toBe(a);
    expect(demoTotpSecret('another-seed', 'admin@example.com')).not.toBe(a);
    expect(demoTotpSecret('custody-console-sandbox', 'admin@example.com', 1)).not.toBe(a);
    for (let i = 0; i < DEMO_FACTORS_PER_USER; i++) {
      expect(demoSecretFor('finance@example.com', i, 'custody-console-sandbox')).toBe(
        demoTotpSecret('custody-console-sandbox', 'finance@example.com', i),
      );
    }
  });

  it('seeds the demo factors in sandbox mode only, once, and they verify', async () => {
    const user = await person();
    await seedDemoFactors(t.db, { sandboxMode: false, seed: 's', key, emails: [user.email] });
    expect(await listFactors(t.db, user.id)).toEqual([]);
    await seedDemoFactors(t.db, { sandboxMode: true, seed: 's', key, emails: [user.email] });
    await seedDemoFactors(t.db, { sandboxMode: true, seed: 's', key, emails: [user.email] });
    const factors = await listFactors(t.db, user.id);
    expect(factors).toHaveLength(DEMO_FACTORS_PER_USER);
    expect(factors.every((f) => f.confirmed && f.kind === 'totp')).toBe(true);
    const code = totpCodeAt(demoTotpSecret('s', user.email, 2), T0);
    const matched = await verifyTotp(t.db, key, user.id, code, { now: T0 });
    expect(factors.find((f) => f.id === matched?.factorId)?.label).toBe('Demo authenticator 3');
  });

  it('keeps the last confirmed factor of an approver, not of others', async () => {
    const finance = await person('finance');
    const one = await enrollTotp(t.db, key, finance, 'One');
    await verifyTotp(t.db, key, finance.id, totpCodeAt(one.secret, T0), { now: T0, factorId: one.factorId });
    const pending = await enrollTotp(t.db, key, finance, 'Unconfirmed');
    expect(await removeFactor(t.db, finance, one.factorId)).toMatchObject({ ok: false, status: 409 });
    expect(await removeFactor(t.db, finance, pending.factorId)).toEqual({ ok: true, label: 'Unconfirmed' });
    expect(await removeFactor(t.db, await person('finance'), one.factorId)).toMatchObject({
      ok: false,
      status: 404,
    });

    const viewer = await person('viewer');
    const own = await enrollTotp(t.db, key, viewer, 'Mine');
    await verifyTotp(t.db, key, viewer.id, totpCodeAt(own.secret, T0), { now: T0, factorId: own.factorId });
    expect(await removeFactor(t.db, viewer, own.factorId)).toEqual({ ok: true, label: 'Mine' });
  });
});
