import 'server-only';
import { eq } from 'drizzle-orm';
import { type ConsoleDb, users } from '@/lib/db/schema';
import type { Role } from '@/lib/roles';

export const SESSION_ABSOLUTE_MS = 8 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/**
 * How long one read of a user's session version, role and disabled flag is reused by this process. Changes made
 * through this process end sessions at once (`forgetSessionState`); changes made by another console instance on
 * the same database take effect within this window.
 */
export const SESSION_STATE_TTL_MS = 5_000;

/** What the console keeps in its session token (signed and encrypted by next-auth). */
export interface ConsoleToken {
  uid?: string;
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

interface Entry {
  at: number;
  state: Promise<UserState | undefined>;
}

// Per database handle, so separate databases (tests, command-line tools) never share entries. Kept on
// globalThis: the proxy and the app are separate bundles in one process and must forget together.
const HOLDER = Symbol.for('custody-console.session-states');
type Holder = {
  [HOLDER]?: { states: WeakMap<ConsoleDb, Map<string, Entry>>; all: Set<Map<string, Entry>> };
};
const holder = globalThis as Holder;
holder[HOLDER] ??= { states: new WeakMap(), all: new Set() };
const shared = holder[HOLDER];
const STATES = shared.states;
const ALL_STATES = shared.all;

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
  let states = STATES.get(db);
  if (!states) {
    states = new Map();
    STATES.set(db, states);
    ALL_STATES.add(states);
  }
  const cached = states.get(uid);
  if (!fresh && cached && now >= cached.at && now - cached.at < SESSION_STATE_TTL_MS) return cached.state;
  const state = readUserState(db, uid);
  const entry = { at: now, state };
  states.set(uid, entry);
  // A failed read is not kept: the next request asks again.
  state.catch(() => {
    if (states.get(uid) === entry) states.delete(uid);
  });
  return state;
}

/** Drops what this process remembers about a user's sessions: the next request reads the database. */
export function forgetSessionState(uid: string): void {
  for (const states of ALL_STATES) states.delete(uid);
}

/**
 * Decides whether a session still stands: absolute lifetime, idle time, and the user's current
 * session version (a disabled user, a changed role or password ends every session at once).
 */
export async function validateToken(
  db: ConsoleDb,
  token: ConsoleToken,
  now = Date.now(),
): Promise<ConsoleToken | null> {
  if (!token.uid || !token.loginAt || !token.lastSeen) return null;
  if (now - token.loginAt > SESSION_ABSOLUTE_MS) return null;
  if (now - token.lastSeen > SESSION_IDLE_MS) return null;
  let user = await userState(db, token.uid, now);
  // A token newer than the remembered state (a session begun after a change) reads the database again.
  if (user && token.sv !== undefined && token.sv > user.sessionVersion)
    user = await userState(db, token.uid, now, true);
  if (!user || user.disabled || user.sessionVersion !== token.sv) return null;
  return { ...token, role: user.role, mcp: user.mustChangePassword, name: user.name, lastSeen: now };
}
