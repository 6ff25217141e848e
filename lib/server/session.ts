import 'server-only';
import { and, eq, isNull, lt } from 'drizzle-orm';
import { type ConsoleDb, userSessions, users } from '@/lib/db/schema';
import type { Role } from '@/lib/roles';

export const SESSION_ABSOLUTE_MS = 8 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/**
 * How long one read of a user's session version, role and disabled flag, and of a session's row, is reused by
 * this process. Changes made through this process end sessions at once (`forgetSessionState`,
 * `forgetSessionRow`); changes made by another console instance on the same database take effect within this
 * window.
 */
export const SESSION_STATE_TTL_MS = 5_000;

/** What the console keeps in its session token (signed and encrypted by next-auth). */
export interface ConsoleToken {
  uid?: string;
  /** The session's row in `user_sessions`: ending that row ends the session. */
  sid?: string;
  role?: Role;
  /** The user's session version when the session began. */
  sv?: number;
  /** Must change the one-time password before anything else. */
  mcp?: boolean;
  loginAt?: number;
  lastSeen?: number;
  email?: string | null;
  name?: string | null;
}

interface UserState {
  role: Role;
  name: string;
  sessionVersion: number;
  disabled: boolean;
  mustChangePassword: boolean;
}

/** What validation needs of a session's row. */
interface SessionRowState {
  userId: string;
  createdAt: number;
  ended: boolean;
  /** Updated in place when this process records a later "last seen". */
  lastSeenAt: number;
}

interface Entry<T> {
  at: number;
  state: Promise<T | undefined>;
}
type Cache<T> = { byDb: WeakMap<ConsoleDb, Map<string, Entry<T>>>; all: Set<Map<string, Entry<T>>> };

// Per database handle, so separate databases (tests, command-line tools) never share entries. Kept on
// globalThis: the proxy and the app are separate bundles in one process and must forget together.
const HOLDER = Symbol.for('custody-console.session-states');
const ROWS_HOLDER = Symbol.for('custody-console.session-rows');
type Holder = { [HOLDER]?: Cache<UserState>; [ROWS_HOLDER]?: Cache<SessionRowState> };
const holder = globalThis as Holder;
holder[HOLDER] ??= { byDb: new WeakMap(), all: new Set() };
holder[ROWS_HOLDER] ??= { byDb: new WeakMap(), all: new Set() };
const USER_STATES = holder[HOLDER];
const SESSION_ROWS = holder[ROWS_HOLDER];

/** A value read at most once per window per key; concurrent callers share one read; failures are not kept. */
function cached<T>(
  cache: Cache<T>,
  db: ConsoleDb,
  key: string,
  now: number,
  fresh: boolean,
  read: () => Promise<T | undefined>,
): Promise<T | undefined> {
  let entries = cache.byDb.get(db);
  if (!entries) {
    entries = new Map();
    cache.byDb.set(db, entries);
    cache.all.add(entries);
  }
  const hit = entries.get(key);
  if (!fresh && hit && now >= hit.at && now - hit.at < SESSION_STATE_TTL_MS) return hit.state;
  const state = read();
  const entry = { at: now, state };
  entries.set(key, entry);
  // A failed read is not kept: the next request asks again.
  state.catch(() => {
    if (entries.get(key) === entry) entries.delete(key);
  });
  return state;
}

async function readUserState(db: ConsoleDb, uid: string): Promise<UserState | undefined> {
  const [row] = await db
    .select({
      role: users.role,
      name: users.name,
      sessionVersion: users.sessionVersion,
      disabledAt: users.disabledAt,
      mustChangePassword: users.mustChangePassword,
    })
    .from(users)
    .where(eq(users.id, uid))
    .limit(1);
  if (!row) return undefined;
  return {
    role: row.role,
    name: row.name,
    sessionVersion: row.sessionVersion,
    disabled: row.disabledAt !== null,
    mustChangePassword: row.mustChangePassword,
  };
}

/** The user's state, read at most once per window; concurrent callers share one read. */
function userState(db: ConsoleDb, uid: string, now: number, fresh = false): Promise<UserState | undefined> {
  return cached(USER_STATES, db, uid, now, fresh, () => readUserState(db, uid));
}

async function readSessionRow(db: ConsoleDb, sid: string): Promise<SessionRowState | undefined> {
  const [row] = await db
    .select({
      userId: userSessions.userId,
      createdAt: userSessions.createdAt,
      endedAt: userSessions.endedAt,
      lastSeenAt: userSessions.lastSeenAt,
    })
    .from(userSessions)
    .where(eq(userSessions.id, sid))
    .limit(1);
  if (!row) return undefined;
  return {
    userId: row.userId,
    createdAt: row.createdAt.getTime(),
    ended: row.endedAt !== null,
    lastSeenAt: row.lastSeenAt.getTime(),
  };
}

/** The session's row, read at most once per window. */
function sessionRow(db: ConsoleDb, sid: string, now: number): Promise<SessionRowState | undefined> {
  return cached(SESSION_ROWS, db, sid, now, false, () => readSessionRow(db, sid));
}

/** Drops what this process remembers about a user's sessions: the next request reads the database. */
export function forgetSessionState(uid: string): void {
  for (const states of USER_STATES.all) states.delete(uid);
}

/** Drops what this process remembers about one session's row (it was ended or changed here). */
export function forgetSessionRow(sid: string): void {
  for (const rows of SESSION_ROWS.all) rows.delete(sid);
}

/** How often a session's "last seen" is written: at most once a minute. */
export const TOUCH_INTERVAL_MS = 60_000;

/** Records that a session was used, at most once a minute; an ended session is left as it is. */
export async function touchSession(db: ConsoleDb, sid: string, now = Date.now()): Promise<void> {
  await db
    .update(userSessions)
    .set({ lastSeenAt: new Date(now) })
    .where(
      and(
        eq(userSessions.id, sid),
        isNull(userSessions.endedAt),
        lt(userSessions.lastSeenAt, new Date(now - TOUCH_INTERVAL_MS)),
      ),
    );
}

/**
 * Whether the session still stands on the server: its row is not ended, it belongs to the user, it is within
 * its absolute lifetime, and the user is neither gone nor disabled. Records "last seen" at most once a minute.
 * The event stream asks this while it is open.
 */
export async function sessionStands(
  db: ConsoleDb,
  sid: string,
  uid: string,
  now = Date.now(),
): Promise<boolean> {
  if (!sid || !uid) return false;
  const [row, user] = await Promise.all([sessionRow(db, sid, now), userState(db, uid, now)]);
  if (!row || row.ended || row.userId !== uid) return false;
  if (now - row.createdAt > SESSION_ABSOLUTE_MS) return false;
  if (!user || user.disabled) return false;
  if (now - row.lastSeenAt >= TOUCH_INTERVAL_MS) {
    row.lastSeenAt = now;
    await touchSession(db, sid, now);
  }
  return true;
}

/**
 * Decides whether a session still stands: absolute lifetime, idle time, its row on the server (sign-out and
 * "end session" end the row), and the user's current session version (a disabled user, a changed role or
 * password ends every session at once). A token without a session row is refused.
 */
export async function validateToken(
  db: ConsoleDb,
  token: ConsoleToken,
  now = Date.now(),
): Promise<ConsoleToken | null> {
  if (!token.uid || !token.sid || !token.loginAt || !token.lastSeen) return null;
  if (now - token.loginAt > SESSION_ABSOLUTE_MS) return null;
  if (now - token.lastSeen > SESSION_IDLE_MS) return null;
  let user = await userState(db, token.uid, now);
  // A token newer than the remembered state (a session begun after a change) reads the database again.
  if (user && token.sv !== undefined && token.sv > user.sessionVersion)
    user = await userState(db, token.uid, now, true);
  if (!user || user.disabled || user.sessionVersion !== token.sv) return null;
  if (!(await sessionStands(db, token.sid, token.uid, now))) return null;
  return { ...token, role: user.role, mcp: user.mustChangePassword, name: user.name, lastSeen: now };
}
