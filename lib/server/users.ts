import 'server-only';
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import { type ConsoleDb, loginAttempts, type Role, type UserRow, users } from '@/lib/db/schema';
import type { AnyDb } from '@/lib/db/types';
import { burnPasswordCheck, generateOneTimePassword, hashPassword, verifyPassword } from './passwords';
import { forgetSessionState } from './session';

export const DEMO_PASSWORD = 'custody-demo';
export const DEMO_USERS: { email: string; name: string; role: Role }[] = [
  { email: 'admin@example.com', name: 'Ada Admin', role: 'admin' },
  { email: 'finance@example.com', name: 'Fay Finance', role: 'finance' },
  { email: 'finance2@example.com', name: 'Finn Finance', role: 'finance' },
  { email: 'support@example.com', name: 'Sam Support', role: 'support' },
  { email: 'viewer@example.com', name: 'Vic Viewer', role: 'viewer' },
];

const LOCKOUT_FAILURES = 5;
const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;
export const LOCKOUT_DURATION_MS = 15 * 60 * 1000;

export async function seedDemoUsers(anyDb: AnyDb): Promise<void> {
  const db = anyDb as ConsoleDb;
  const [existing] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  if ((existing?.n ?? 0) > 0) return;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db
    .insert(users)
    .values(DEMO_USERS.map((u) => ({ ...u, passwordHash })))
    .onConflictDoNothing();
}

export function listUsers(db: ConsoleDb) {
  return db.select().from(users).orderBy(asc(users.email));
}

export async function findUserById(db: ConsoleDb, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function findUserByEmail(db: ConsoleDb, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return row;
}

export async function createUser(
  db: ConsoleDb,
  input: { email: string; name: string; role: Role },
): Promise<{ ok: true; user: UserRow; oneTimePassword: string } | { ok: false; error: string }> {
  const oneTimePassword = generateOneTimePassword();
  const passwordHash = await hashPassword(oneTimePassword);
  const rows = await db
    .insert(users)
    .values({ ...input, email: input.email.toLowerCase(), passwordHash, mustChangePassword: true })
    .onConflictDoNothing({ target: users.email })
    .returning();
  const user = rows[0];
  if (!user) return { ok: false, error: 'A user with this email already exists' };
  return { ok: true, user, oneTimePassword };
}

/** Any change here ends the user's existing sessions: the session version moves on. */
async function updateUser(db: ConsoleDb, id: string, patch: Partial<UserRow>): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...patch, sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  forgetSessionState(id);
  return row;
}

export const setUserRole = (db: ConsoleDb, id: string, role: Role) => updateUser(db, id, { role });
export const disableUser = (db: ConsoleDb, id: string) => updateUser(db, id, { disabledAt: new Date() });
export const enableUser = (db: ConsoleDb, id: string) => updateUser(db, id, { disabledAt: null });

export async function changePassword(db: ConsoleDb, id: string, newPassword: string) {
  return updateUser(db, id, { passwordHash: await hashPassword(newPassword), mustChangePassword: false });
}

export type CredentialCheck = { ok: true; user: UserRow } | { ok: false; reason: 'invalid' | 'locked' };

/** When the account (known or not) is locked, the time it opens again; else null. */
async function lockedUntil(db: ConsoleDb, email: string, now: Date): Promise<Date | null> {
  const since = new Date(now.getTime() - LOCKOUT_WINDOW_MS - LOCKOUT_DURATION_MS);
  const recent = await db
    .select()
    .from(loginAttempts)
    .where(and(eq(loginAttempts.email, email), gt(loginAttempts.at, since)))
    .orderBy(desc(loginAttempts.at), desc(loginAttempts.id))
    .limit(50);
  // Failures only count back to the last success.
  const failures: Date[] = [];
  for (const attempt of recent) {
    if (attempt.succeeded) break;
    failures.push(attempt.at);
  }
  // A lock starts at the fifth failure within 15 minutes and lasts 15 minutes from there.
  for (let i = 0; i + LOCKOUT_FAILURES - 1 < failures.length; i++) {
    const newest = failures[i]!;
    const oldest = failures[i + LOCKOUT_FAILURES - 1]!;
    if (newest.getTime() - oldest.getTime() > LOCKOUT_WINDOW_MS) continue;
    const until = new Date(newest.getTime() + LOCKOUT_DURATION_MS);
    if (until > now) return until;
  }
  return null;
}

/**
 * Checks an email and password. The answer never tells an unknown email from a wrong password:
 * both burn one hash comparison, both count towards the lockout.
 */
export async function checkCredentials(
  db: ConsoleDb,
  rawEmail: string,
  password: string,
  now = new Date(),
): Promise<CredentialCheck> {
  const email = rawEmail.trim().toLowerCase();
  if (await lockedUntil(db, email, now)) return { ok: false, reason: 'locked' };
  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  const valid = user ? await verifyPassword(password, user.passwordHash) : await burnPasswordCheck(password);
  const succeeded = Boolean(user && valid && !user.disabledAt);
  await db.insert(loginAttempts).values({ email, succeeded, at: now });
  if (succeeded && user) return { ok: true, user };
  if (await lockedUntil(db, email, now)) return { ok: false, reason: 'locked' };
  return { ok: false, reason: 'invalid' };
}
