import 'server-only';
// The server's record of every signed-in session (`user_sessions`). The session cookie carries only the row's
// id; ending the row ends the session for every later request, action, route, page and event stream.
import { and, desc, eq, isNull, ne } from 'drizzle-orm';
import { type ConsoleDb, type UserSessionRow, userSessions } from '@/lib/db/schema';
import { forgetSessionRow, forgetSessionState, SESSION_ABSOLUTE_MS } from './session';

export { touchSession } from './session';

/** Why a session ended, as stored in `ended_reason`. */
export type SessionEndReason =
  | 'sign-out'
  | 'ended-by-user'
  | 'ended-by-admin'
  | 'disabled'
  | 'role-changed'
  | 'password-changed'
  | 'expired';

export interface StartSession {
  userId: string;
  userAgent?: string | null;
  ipAddress?: string | null;
  /** When the sign-in checked a second factor (ms since the epoch). */
  stepUpAt?: number | null;
  now?: number;
}

// A user agent is shown, not parsed for decisions; a very long one is cut rather than stored whole.
const MAX_USER_AGENT = 512;

/** Records a new session at sign-in and returns its row. */
export async function startSession(db: ConsoleDb, input: StartSession): Promise<UserSessionRow> {
  const now = new Date(input.now ?? Date.now());
  const [row] = await db
    .insert(userSessions)
    .values({
      userId: input.userId,
      createdAt: now,
      lastSeenAt: now,
      stepUpAt: input.stepUpAt ? new Date(input.stepUpAt) : null,
      userAgent: input.userAgent ? input.userAgent.slice(0, MAX_USER_AGENT) : null,
      ipAddress: input.ipAddress ?? null,
    })
    .returning();
  if (!row) throw new Error('The session could not be recorded');
  return row;
}

export async function sessionById(db: ConsoleDb, sid: string): Promise<UserSessionRow | undefined> {
  if (!isUuid(sid)) return undefined;
  const [row] = await db.select().from(userSessions).where(eq(userSessions.id, sid)).limit(1);
  return row;
}

/** Ends one session (if it is still open); true when this call ended it. Forgotten by this process at once. */
export async function endSession(db: ConsoleDb, sid: string, reason: SessionEndReason): Promise<boolean> {
  if (!isUuid(sid)) return false;
  const ended = await db
    .update(userSessions)
    .set({ endedAt: new Date(), endedReason: reason })
    .where(and(eq(userSessions.id, sid), isNull(userSessions.endedAt)))
    .returning({ id: userSessions.id });
  forgetSessionRow(sid);
  return ended.length > 0;
}

/**
 * Ends every open session of a user, except `exceptSid` when given (the session asking, say). Returns the ids
 * it ended; all are forgotten by this process at once.
 */
export async function endUserSessions(
  db: ConsoleDb,
  userId: string,
  reason: SessionEndReason,
  exceptSid?: string,
): Promise<string[]> {
  const conditions = [eq(userSessions.userId, userId), isNull(userSessions.endedAt)];
  if (exceptSid && isUuid(exceptSid)) conditions.push(ne(userSessions.id, exceptSid));
  const ended = await db
    .update(userSessions)
    .set({ endedAt: new Date(), endedReason: reason })
    .where(and(...conditions))
    .returning({ id: userSessions.id });
  for (const { id } of ended) forgetSessionRow(id);
  forgetSessionState(userId);
  return ended.map((r) => r.id);
}

/** A user's open sessions, most recently used first (sessions past their lifetime are left out). */
export async function listSessions(
  db: ConsoleDb,
  userId: string,
  now = Date.now(),
): Promise<UserSessionRow[]> {
  const rows = await db
    .select()
    .from(userSessions)
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.endedAt)))
    .orderBy(desc(userSessions.lastSeenAt), desc(userSessions.createdAt));
  return rows.filter((r) => now - r.createdAt.getTime() <= SESSION_ABSOLUTE_MS);
}

/** Records that the session proved a second factor at `at` (ms since the epoch). */
export async function recordStepUp(db: ConsoleDb, sid: string, at: number): Promise<void> {
  if (!isUuid(sid)) return;
  await db
    .update(userSessions)
    .set({ stepUpAt: new Date(at) })
    .where(and(eq(userSessions.id, sid), isNull(userSessions.endedAt)));
  forgetSessionRow(sid);
}

// Session ids come from tokens and forms: anything that is not a UUID is no session (and never reaches the
// database as a malformed uuid).
function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
