// Sign-in throttling per client address, against a real database: past the limit every sign-in from the address
// is answered as a locked account (known email or not, right password or not), other addresses are not touched,
// the window passing lifts it, and successes neither count nor clear the count. Times are passed in, never waited.
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseEnv } from '@/lib/config/env';
import { authChallenges, loginAttempts } from '@/lib/db/schema';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { relyingParty } from './factors/relying-party';
import { beginSecondStep, completeSecondStep } from './factors/sign-in';
import { enrollTotp, totpCodeAt, verifyTotp } from './factors/totp';
import { ADDRESS_WINDOW_MS, type SignInClient, throttleKeyOf } from './sign-in-throttle';
import { checkCredentials, createUser } from './users';

// The throttle is what is tested here, not bcrypt (lib/server/users.test.ts checks the real hashes): a quick
// stand-in keeps dozens of password checks from taking seconds each on a busy machine.
vi.mock('./passwords', async (original) => ({
  ...(await original<typeof import('./passwords')>()),
  hashPassword: async (password: string) => `test-hash:${password}`,
  verifyPassword: async (password: string, passwordHash: string) => passwordHash === `test-hash:${password}`,
  burnPasswordCheck: async () => false,
}));

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.close();
});

/** The limit a console has when SIGN_IN_ADDRESS_FAILURES is not set. */
const DEFAULT_LIMIT = parseEnv({}).SIGN_IN_ADDRESS_FAILURES;
/** A small limit, so the tests about what counts burn few password checks. */
const SMALL_LIMIT = 3;
const MINUTE = 60_000;
const LOCKED = { ok: false, reason: 'locked', addressThrottled: true };

const from = (address: string | null, failureLimit = SMALL_LIMIT): SignInClient => ({
  address,
  failureLimit,
});

async function person(name: string, role: 'viewer' | 'finance' = 'viewer') {
  const created = await createUser(t.db, {
    email: `${name}-${randomBytes(4).toString('hex')}@example.com`,
    name,
    role,
  });
  if (!created.ok) throw new Error(created.error);
  return { user: created.user, email: created.user.email, password: created.oneTimePassword };
}

/** A sign-in with an email nobody has, from `client` at `now`. */
const stranger = (client: SignInClient, now: Date) =>
  checkCredentials(t.db, `nobody-${randomBytes(4).toString('hex')}@example.com`, 'guess', now, { client });

const failuresFrom = async (key: string) =>
  (
    await t.db
      .select()
      .from(loginAttempts)
      .where(and(eq(loginAttempts.clientAddress, key), eq(loginAttempts.succeeded, false)))
  ).length;

describe('the client a sign-in is counted against', () => {
  it('is an IPv4 address however written, an IPv6 address by its /64, nobody when unknown', () => {
    expect(throttleKeyOf('192.0.2.7')).toBe('192.0.2.7');
    expect(throttleKeyOf('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(throttleKeyOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(throttleKeyOf('2001:DB8:1:2:ffff:ffff:ffff:9%eth0')).toBe('2001:db8:1:2::/64');
    expect(throttleKeyOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(throttleKeyOf(null)).toBeNull();
    expect(throttleKeyOf('  ')).toBeNull();
  });
});

describe('sign-in throttling per client address', () => {
  it(`answers every sign-in as locked once one address has failed ${DEFAULT_LIMIT} times in 15 minutes, for any email, right password included`, async () => {
    const [ann, bob, cat] = [await person('ann'), await person('bob'), await person('cat')];
    const client = from('203.0.113.10', DEFAULT_LIMIT);
    const start = Date.parse('2026-03-02T09:00:00Z');
    // 25 different emails, a few seconds apart: strangers, and known people with a wrong password.
    const emails = Array.from(
      { length: 25 },
      (_, i) => `guess-${i}-${randomBytes(3).toString('hex')}@example.com`,
    );
    emails[3] = ann.email;
    emails[11] = bob.email;
    const answers = [];
    for (const [i, email] of emails.entries())
      answers.push(await checkCredentials(t.db, email, 'wrong', new Date(start + i * 5_000), { client }));
    // Each account failed once (far from its own lockout): the address alone refuses from the limit on.
    expect(answers.slice(0, DEFAULT_LIMIT - 1).every((a) => !a.ok && a.reason === 'invalid')).toBe(true);
    for (const answer of answers.slice(DEFAULT_LIMIT - 1)) expect(answer).toEqual(LOCKED);

    // The same answer for a known person with the right password, a known one with a wrong one, and a stranger.
    const now = new Date(start + 25 * 5_000);
    expect(await checkCredentials(t.db, cat.email, cat.password, now, { client })).toEqual(LOCKED);
    expect(await checkCredentials(t.db, ann.email, ann.password, now, { client })).toEqual(LOCKED);
    expect(await checkCredentials(t.db, bob.email, 'wrong again', now, { client })).toEqual(LOCKED);
    expect(await stranger(client, now)).toEqual(LOCKED);
    // Refused attempts are not counted (nor checked): the failures stay at the limit.
    expect(await failuresFrom('203.0.113.10')).toBe(DEFAULT_LIMIT);
  });

  it('leaves other addresses alone', async () => {
    const ann = await person('ann');
    const now = new Date('2026-03-03T09:00:00Z');
    for (let i = 0; i < SMALL_LIMIT; i++) await stranger(from('198.51.100.1'), now);
    expect(
      await checkCredentials(t.db, ann.email, ann.password, now, { client: from('198.51.100.1') }),
    ).toEqual(LOCKED);
    const elsewhere = from('198.51.100.2');
    expect(await stranger(elsewhere, now)).toEqual({ ok: false, reason: 'invalid' });
    expect((await checkCredentials(t.db, ann.email, ann.password, now, { client: elsewhere })).ok).toBe(true);
  });

  it('lifts once the failures are older than the window', async () => {
    const ann = await person('ann');
    const client = from('198.51.100.3');
    const start = Date.parse('2026-03-04T09:00:00Z');
    for (let i = 0; i < SMALL_LIMIT; i++) await stranger(client, new Date(start + i * 1_000));
    const stillInside = new Date(start + ADDRESS_WINDOW_MS - 1_000);
    expect(await checkCredentials(t.db, ann.email, ann.password, stillInside, { client })).toEqual(LOCKED);
    expect(await stranger(client, stillInside)).toEqual(LOCKED);
    const past = new Date(start + (SMALL_LIMIT - 1) * 1_000 + ADDRESS_WINDOW_MS + 1_000);
    expect((await checkCredentials(t.db, ann.email, ann.password, past, { client })).ok).toBe(true);
    expect(await stranger(client, past)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('does not count successes, and a success does not clear the failures before it', async () => {
    const ann = await person('ann');
    const client = from('198.51.100.4');
    const at = (minute: number) => new Date(Date.parse('2026-03-05T09:00:00Z') + minute * MINUTE);
    const signInAnn = (minute: number) =>
      checkCredentials(t.db, ann.email, ann.password, at(minute), { client });
    expect(await stranger(client, at(0))).toEqual({ ok: false, reason: 'invalid' });
    for (let minute = 1; minute <= 4; minute++) expect((await signInAnn(minute)).ok).toBe(true);
    expect(await stranger(client, at(5))).toEqual({ ok: false, reason: 'invalid' });
    expect((await signInAnn(6)).ok).toBe(true);
    // Seven attempts, five of them successes: only the third failure reaches the limit.
    expect(await stranger(client, at(7))).toEqual(LOCKED);
    expect(await signInAnn(8)).toEqual(LOCKED);
  });

  it('counts each address on its own', async () => {
    const ann = await person('ann');
    const [one, two] = [from('198.51.100.5'), from('198.51.100.6')];
    const now = new Date('2026-03-06T09:00:00Z');
    for (let i = 0; i < SMALL_LIMIT - 1; i++) {
      expect(await stranger(one, now)).toEqual({ ok: false, reason: 'invalid' });
      expect(await stranger(two, now)).toEqual({ ok: false, reason: 'invalid' });
    }
    // Four failures between them, above the limit of three, yet neither address is at its limit.
    expect((await checkCredentials(t.db, ann.email, ann.password, now, { client: one })).ok).toBe(true);
    expect((await checkCredentials(t.db, ann.email, ann.password, now, { client: two })).ok).toBe(true);
    expect(await stranger(one, now)).toEqual(LOCKED);
    expect((await checkCredentials(t.db, ann.email, ann.password, now, { client: two })).ok).toBe(true);
    expect(await failuresFrom('198.51.100.5')).toBe(SMALL_LIMIT);
    expect(await failuresFrom('198.51.100.6')).toBe(SMALL_LIMIT - 1);
  });

  it('counts an IPv4 client however its address is written, and an IPv6 client across its /64', async () => {
    const now = new Date('2026-03-07T09:00:00Z');
    await stranger(from('::ffff:192.0.2.8'), now);
    await stranger(from('192.0.2.8'), now);
    expect(await stranger(from('::ffff:192.0.2.8'), now)).toEqual(LOCKED);
    await stranger(from('2001:db8:7:7::1'), now);
    await stranger(from('2001:db8:7:7::2'), now);
    expect(await stranger(from('2001:db8:7:7:abcd::3'), now)).toEqual(LOCKED);
    expect(await stranger(from('2001:db8:7:8::1'), now)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('leaves only the account lockout when the address is not known', async () => {
    const now = new Date('2026-03-08T09:00:00Z');
    for (let i = 0; i < 2; i++)
      expect(await stranger(from(null, 1), now)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('counts wrong second-factor codes, and refuses the second step from an address past its limit', async () => {
    const key = randomBytes(32);
    const rp = relyingParty('https://console.example.com');
    const fay = await person('fay', 'finance');
    const start = Date.parse('2026-03-09T09:00:00Z');
    const app = await enrollTotp(t.db, key, fay.user, 'Phone');
    await verifyTotp(t.db, key, fay.user.id, totpCodeAt(app.secret, start - 10 * MINUTE), {
      now: start - 10 * MINUTE,
      factorId: app.factorId,
    });
    const client = from('198.51.100.7');
    const secondStepDue = () => true;
    // A stranger's guess, then Fay's right password and two wrong codes: three failures from the address.
    await stranger(client, new Date(start));
    const password = await checkCredentials(t.db, fay.email, fay.password, new Date(start), {
      client,
      secondStepDue,
    });
    expect(password.ok).toBe(true);
    const pending = await beginSecondStep(t.db, fay.user.id, start);
    const code = (c: string, now: number) =>
      completeSecondStep(
        t.db,
        key,
        rp,
        { pendingId: pending.pendingId, method: 'totp', code: c },
        now,
        client,
      );
    expect(await code('000000', start + 1_000)).toMatchObject({ ok: false, reason: 'invalid' });
    expect(await code('000001', start + 2_000)).toMatchObject(LOCKED);
    // The pending sign-in is gone, and the right password is answered as locked too.
    expect(await t.db.select().from(authChallenges).where(eq(authChallenges.id, pending.pendingId))).toEqual(
      [],
    );
    expect(
      await checkCredentials(t.db, fay.email, fay.password, new Date(start + 3_000), {
        client,
        secondStepDue,
      }),
    ).toEqual(LOCKED);
    // From another address the right code still works, once the password is given again.
    const elsewhere = from('198.51.100.8');
    const again = await beginSecondStep(t.db, fay.user.id, start + 4_000);
    const done = await completeSecondStep(
      t.db,
      key,
      rp,
      { pendingId: again.pendingId, method: 'totp', code: totpCodeAt(app.secret, start + 4_000) },
      start + 4_000,
      elsewhere,
    );
    expect(done).toMatchObject({ ok: true });
  });
});
