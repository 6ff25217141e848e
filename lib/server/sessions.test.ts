// Server-side sessions against a real database: a session's row decides whether its cookie still works.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userSessions } from '@/lib/db/schema';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import {
  type ConsoleToken,
  SESSION_STATE_TTL_MS,
  sessionStands,
  TOUCH_INTERVAL_MS,
  validateToken,
} from './session';
import {
  endSession,
  endUserSessions,
  listSessions,
  recordStepUp,
  sessionById,
  startSession,
  touchSession,
} from './sessions';
import { changePassword, createUser, disableUser, setUserRole } from './users';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.close();
});

async function newUser(label: string) {
  const created = await createUser(t.db, {
    email: `${label}-${crypto.randomUUID()}@example.com`,
    name: label,
    role: 'finance',
  });
  if (!created.ok) throw new Error(created.error);
  return created.user;
}

async function signIn(user: { id: string; sessionVersion: number }, now = Date.now(), extra = {}) {
  const row = await startSession(t.db, { userId: user.id, now, ...extra });
  const token: ConsoleToken = {
    uid: user.id,
    sid: row.id,
    sv: user.sessionVersion,
    loginAt: now,
    lastSeen: now,
  };
  return { row, token };
}

describe('user sessions', () => {
  it('records a session at sign-in with its browser, address and second-factor time', async () => {
    const user = await newUser('start');
    const at = Date.now();
    const { row } = await signIn(user, at, {
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
      ipAddress: '10.1.2.3',
      stepUpAt: at - 1000,
    });
    const stored = await sessionById(t.db, row.id);
    expect(stored).toMatchObject({
      userId: user.id,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
      ipAddress: '10.1.2.3',
      endedAt: null,
    });
    expect(stored?.stepUpAt?.getTime()).toBe(at - 1000);
    expect(await sessionById(t.db, 'not-a-session')).toBeUndefined();
  });

  it('lists only the open sessions of the user, most recently used first', async () => {
    const user = await newUser('list');
    const other = await newUser('list-other');
    const now = Date.now();
    const older = await signIn(user, now - 60_000);
    const newer = await signIn(user, now);
    const ended = await signIn(user, now);
    await signIn(other, now);
    await endSession(t.db, ended.row.id, 'sign-out');
    expect((await listSessions(t.db, user.id)).map((s) => s.id)).toEqual([newer.row.id, older.row.id]);
  });

  it('refuses a token whose session was ended, at once in this process, with the reason stored', async () => {
    const user = await newUser('end');
    const now = Date.now();
    const { row, token } = await signIn(user, now);
    // Remembered as valid for the cache window...
    expect(await validateToken(t.db, token, now)).not.toBeNull();
    expect(await endSession(t.db, row.id, 'sign-out')).toBe(true);
    // ...but ending it here forgets it: the very next check, inside the window, refuses it.
    expect(await validateToken(t.db, token, now + 1)).toBeNull();
    expect(await sessionStands(t.db, row.id, user.id, now + 1)).toBe(false);
    const stored = await sessionById(t.db, row.id);
    expect(stored?.endedReason).toBe('sign-out');
    expect(stored?.endedAt).not.toBeNull();
    // Ending it again changes nothing.
    expect(await endSession(t.db, row.id, 'ended-by-admin')).toBe(false);
    expect((await sessionById(t.db, row.id))?.endedReason).toBe('sign-out');
  });

  it('refuses an ended session within the cache window when another instance ended it', async () => {
    const user = await newUser('other-instance');
    const now = Date.now();
    const { row, token } = await signIn(user, now);
    expect(await validateToken(t.db, token, now)).not.toBeNull();
    // Another console instance on the same database: this process is not told.
    await t.db
      .update(userSessions)
      .set({ endedAt: new Date(), endedReason: 'ended-by-admin' })
      .where(eq(userSessions.id, row.id));
    expect(await validateToken(t.db, token, now + SESSION_STATE_TTL_MS + 1)).toBeNull();
  });

  it('refuses a session that belongs to someone else', async () => {
    const user = await newUser('owner');
    const intruder = await newUser('intruder');
    const { row } = await signIn(user);
    const now = Date.now();
    const forged: ConsoleToken = {
      uid: intruder.id,
      sid: row.id,
      sv: intruder.sessionVersion,
      loginAt: now,
      lastSeen: now,
    };
    expect(await validateToken(t.db, forged, now)).toBeNull();
  });

  it('ends every session of a user but the one asking', async () => {
    const user = await newUser('all');
    const now = Date.now();
    const keep = await signIn(user, now);
    const a = await signIn(user, now);
    const b = await signIn(user, now);
    await validateToken(t.db, a.token, now);
    const ended = await endUserSessions(t.db, user.id, 'ended-by-user', keep.row.id);
    expect(ended.sort()).toEqual([a.row.id, b.row.id].sort());
    expect(await validateToken(t.db, a.token, now + 1)).toBeNull();
    expect(await validateToken(t.db, b.token, now + 1)).toBeNull();
    expect(await validateToken(t.db, keep.token, now + 1)).not.toBeNull();
    expect((await listSessions(t.db, user.id)).map((s) => s.id)).toEqual([keep.row.id]);
  });

  it.each([
    ['disabled', (id: string) => disableUser(t.db, id)],
    ['role-changed', (id: string) => setUserRole(t.db, id, 'viewer')],
    ['password-changed', (id: string) => changePassword(t.db, id, 'a new long password 1')],
  ] as const)('ends every session row when the user is changed: %s', async (reason, change) => {
    const user = await newUser(`change-${reason}`);
    const { row } = await signIn(user);
    await change(user.id);
    const stored = await sessionById(t.db, row.id);
    expect(stored?.endedReason).toBe(reason);
    expect(await listSessions(t.db, user.id)).toEqual([]);
  });

  it('records "last seen" at most once a minute', async () => {
    const user = await newUser('touch');
    const start = Date.now() - 10 * TOUCH_INTERVAL_MS;
    const { row, token } = await signIn(user, start);
    const lastSeen = async () => (await sessionById(t.db, row.id))?.lastSeenAt.getTime();
    await touchSession(t.db, row.id, start + TOUCH_INTERVAL_MS / 2);
    expect(await lastSeen()).toBe(start);
    await touchSession(t.db, row.id, start + TOUCH_INTERVAL_MS + 1);
    expect(await lastSeen()).toBe(start + TOUCH_INTERVAL_MS + 1);
    // Validation touches the row when the last record is a minute old.
    const later = start + 3 * TOUCH_INTERVAL_MS;
    expect(await validateToken(t.db, { ...token, lastSeen: later }, later)).not.toBeNull();
    expect(await lastSeen()).toBe(later);
    // An ended session is not touched.
    await endSession(t.db, row.id, 'sign-out');
    await touchSession(t.db, row.id, later + 2 * TOUCH_INTERVAL_MS);
    expect(await lastSeen()).toBe(later);
  });

  it('records a step-up on an open session only', async () => {
    const user = await newUser('step-up');
    const { row } = await signIn(user);
    const at = Date.now();
    await recordStepUp(t.db, row.id, at);
    expect((await sessionById(t.db, row.id))?.stepUpAt?.getTime()).toBe(at);
    await endSession(t.db, row.id, 'sign-out');
    await recordStepUp(t.db, row.id, at + 1000);
    expect((await sessionById(t.db, row.id))?.stepUpAt?.getTime()).toBe(at);
  });

  it('lets the event stream see a disabled user as signed out', async () => {
    const user = await newUser('stream');
    const now = Date.now();
    const { row } = await signIn(user, now);
    expect(await sessionStands(t.db, row.id, user.id, now)).toBe(true);
    await disableUser(t.db, user.id);
    expect(await sessionStands(t.db, row.id, user.id, now + 1)).toBe(false);
    expect(await sessionStands(t.db, '', user.id, now + 1)).toBe(false);
  });
});
