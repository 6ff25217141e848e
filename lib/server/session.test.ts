import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleDb, users } from '@/lib/db/schema';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { type ConsoleToken, SESSION_STATE_TTL_MS, validateToken } from './session';
import { startSession } from './sessions';
import { createUser, disableUser } from './users';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.close();
});

/** The test database, counting the reads (the user's state and the session's row) that validation makes. */
function countingDb(db: ConsoleDb) {
  const counter = { selects: 0 };
  const counted = new Proxy(db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== 'select' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        counter.selects++;
        return value.apply(target, args);
      };
    },
  });
  return { db: counted, counter };
}

async function signedIn(email: string): Promise<{ id: string; token: ConsoleToken; now: number }> {
  const created = await createUser(t.db, { email, name: 'S', role: 'finance' });
  if (!created.ok) throw new Error(created.error);
  const now = Date.now();
  const session = await startSession(t.db, { userId: created.user.id, now });
  return {
    id: created.user.id,
    token: {
      uid: created.user.id,
      sid: session.id,
      sv: created.user.sessionVersion,
      loginAt: now,
      lastSeen: now,
      role: 'finance',
    },
    now,
  };
}

describe('session state cache', () => {
  it('reads the user and the session once for every check of one request (proxy, layouts, page)', async () => {
    const { db, counter } = countingDb(t.db);
    const { token, now } = await signedIn('one-read@example.com');
    const checks = await Promise.all([1, 2, 3, 4].map((ms) => validateToken(db, token, now + ms)));
    expect(checks.every((c) => c?.uid === token.uid)).toBe(true);
    expect(counter.selects).toBe(2);
    // A later request within the window reads nothing; one after it reads both again.
    await validateToken(db, token, now + SESSION_STATE_TTL_MS - 1);
    expect(counter.selects).toBe(2);
    await validateToken(db, token, now + SESSION_STATE_TTL_MS + 1);
    expect(counter.selects).toBe(4);
  });

  it('refuses a token without a session row', async () => {
    const { token, now } = await signedIn('no-row@example.com');
    expect(await validateToken(t.db, { ...token, sid: undefined }, now)).toBeNull();
    expect(await validateToken(t.db, { ...token, sid: crypto.randomUUID() }, now)).toBeNull();
  });

  it('cuts off a user disabled by another console instance once the window has passed', async () => {
    const { id, token, now } = await signedIn('other-instance@example.com');
    expect(await validateToken(t.db, token, now)).not.toBeNull();
    // Another instance on the same database: this process is not told.
    await t.db
      .update(users)
      .set({ disabledAt: new Date(), sessionVersion: (token.sv ?? 0) + 1 })
      .where(eq(users.id, id));
    expect(await validateToken(t.db, token, now + SESSION_STATE_TTL_MS + 1)).toBeNull();
    expect(SESSION_STATE_TTL_MS).toBeLessThanOrEqual(10_000);
  });

  it('cuts off a user disabled through this process at once, inside the window', async () => {
    const { id, token, now } = await signedIn('this-instance@example.com');
    expect(await validateToken(t.db, token, now)).not.toBeNull();
    await disableUser(t.db, id);
    expect(await validateToken(t.db, token, now + 1)).toBeNull();
  });

  it('keeps a role change read by the first check for the rest of the window, then reads it again', async () => {
    const { id, token, now } = await signedIn('role-window@example.com');
    await validateToken(t.db, token, now);
    await t.db.update(users).set({ name: 'Renamed' }).where(eq(users.id, id));
    expect((await validateToken(t.db, token, now + 1))?.name).toBe('S');
    expect((await validateToken(t.db, token, now + SESSION_STATE_TTL_MS + 1))?.name).toBe('Renamed');
  });
});
