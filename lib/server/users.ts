import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { getConfig } from '@/lib/config';
import {
  type ConsoleDb,
  loginAttempts,
  type Role,
  type UserRow,
  userFactors,
  userInvitations,
  users,
} from '@/lib/db/schema';
import type { AnyDb } from '@/lib/db/types';
import { recordProvenance } from './approvals/independence';
import { seedDemoFactors } from './factors/demo';
import { requiresSecondFactor } from './factors/store';
import {
  burnPasswordCheck,
  generateOneTimePassword,
  hashPassword,
  PUBLISHED_PASSWORD_COST,
  verifyPassword,
} from './passwords';
import { forgetSessionState } from './session';
import { endUserSessions, type SessionEndReason } from './sessions';
import { addressThrottled, type SignInClient, throttleKeyOf } from './sign-in-throttle';

export const DEMO_PASSWORD = 'custody-demo';
export const DEMO_USERS: { email: string; name: string; role: Role }[] = [
  { email: 'admin@example.com', name: 'Ada Admin', role: 'admin' },
  // A second admin, so configuration changes (which a second admin approves) can be tried in the demo.
  { email: 'admin2@example.com', name: 'Second Admin', role: 'admin' },
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
  if ((existing?.n ?? 0) === 0) {
    const passwordHash = await hashPassword(DEMO_PASSWORD, PUBLISHED_PASSWORD_COST);
    await db
      .insert(users)
      .values(DEMO_USERS.map((u) => ({ ...u, passwordHash })))
      .onConflictDoNothing();
  }
  // Their authenticator apps (sandbox mode only; secrets from SANDBOX_SEED, see factors/demo.ts).
  const config = getConfig();
  await seedDemoFactors(db, {
    sandboxMode: config.sandboxMode,
    seed: config.env.SANDBOX_SEED,
    key: config.encryptionKey,
    // Only the people who must sign in with one; the others may add their own on /account/security.
    emails: DEMO_USERS.filter((u) => requiresSecondFactor(u.role)).map((u) => u.email),
  });
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

/**
 * Creates a user with a one-time password: the command-line bootstrap, run by whoever runs the server, and tests.
 * `createdBy`: the admin who asked for the user (recorded as the account's provenance); null for the bootstrap.
 * People added in the console are invited instead (`createInvitedUser`).
 */
export async function createUser(
  db: ConsoleDb,
  input: { email: string; name: string; role: Role; createdBy?: string; requestId?: string },
): Promise<{ ok: true; user: UserRow; oneTimePassword: string } | { ok: false; error: string }> {
  const oneTimePassword = generateOneTimePassword();
  const passwordHash = await hashPassword(oneTimePassword);
  const rows = await db
    .insert(users)
    .values({
      email: input.email.toLowerCase(),
      name: input.name,
      role: input.role,
      passwordHash,
      mustChangePassword: true,
      createdBy: input.createdBy ?? null,
      roleGrantedBy: input.createdBy ?? null,
    })
    .onConflictDoNothing({ target: users.email })
    .returning();
  const user = rows[0];
  if (!user) return { ok: false, error: 'A user with this email already exists' };
  if (input.createdBy)
    await recordProvenance(db, [
      { subject: user.id, actor: input.createdBy, kind: 'requested', requestId: input.requestId },
    ]);
  return { ok: true, user, oneTimePassword };
}

/** A bcrypt hash of 32 random bytes nobody keeps: no password matches it, and checking one costs as much as ever. */
async function unusablePasswordHash(): Promise<string> {
  return hashPassword(randomBytes(32).toString('base64url'));
}

/**
 * Creates an invited user: the account has no usable password until its owner sets one through the link sent to
 * their own mailbox. `createdBy`, the admin who asked for the account, chose that mailbox: they control it
 * (provenance `requested`).
 */
export async function createInvitedUser(
  db: ConsoleDb,
  input: { email: string; name: string; role: Role; createdBy: string; requestId?: string },
): Promise<{ ok: true; user: UserRow } | { ok: false; error: string }> {
  const rows = await db
    .insert(users)
    .values({
      email: input.email.toLowerCase(),
      name: input.name,
      role: input.role,
      passwordHash: await unusablePasswordHash(),
      createdBy: input.createdBy,
      roleGrantedBy: input.createdBy,
    })
    .onConflictDoNothing({ target: users.email })
    .returning();
  const user = rows[0];
  if (!user) return { ok: false, error: 'A user with this email already exists' };
  await recordProvenance(db, [
    { subject: user.id, actor: input.createdBy, kind: 'requested', requestId: input.requestId },
  ]);
  return { ok: true, user };
}

/**
 * Any change here ends the user's existing sessions: the session version moves on and every open session row is
 * ended with the reason given.
 */
async function updateUser(
  db: ConsoleDb,
  id: string,
  patch: Partial<UserRow>,
  reason: SessionEndReason,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...patch, sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  await endUserSessions(db, id, reason);
  forgetSessionState(id);
  return row;
}

/** `grantedBy`: the admin who asked for the role; they control the account from now on (its provenance). */
export async function setUserRole(
  db: ConsoleDb,
  id: string,
  role: Role,
  grantedBy?: string,
  requestId?: string,
) {
  const user = await updateUser(
    db,
    id,
    grantedBy ? { role, roleGrantedBy: grantedBy } : { role },
    'role-changed',
  );
  if (user && grantedBy)
    await recordProvenance(db, [{ subject: id, actor: grantedBy, kind: 'role', requestId }]);
  return user;
}

/** Ends the user's sessions, and every invitation or reset link not used yet: enabling them again revives none. */
export async function disableUser(db: ConsoleDb, id: string) {
  const now = new Date();
  const user = await updateUser(db, id, { disabledAt: now }, 'disabled');
  if (user)
    await db
      .update(userInvitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(userInvitations.userId, id),
          isNull(userInvitations.usedAt),
          isNull(userInvitations.revokedAt),
        ),
      );
  return user;
}
export const enableUser = (db: ConsoleDb, id: string) => updateUser(db, id, { disabledAt: null }, 'disabled');

export async function changePassword(db: ConsoleDb, id: string, newPassword: string) {
  return updateUser(
    db,
    id,
    { passwordHash: await hashPassword(newPassword), mustChangePassword: false },
    'password-changed',
  );
}

/**
 * A reset an admin asked for (and another approved): the password stops working and the open sessions end at once;
 * with `factors`, the second factors go too. The owner sets new ones through the link sent to their mailbox.
 */
export async function lockCredentialsForReset(db: ConsoleDb, id: string, options: { factors: boolean }) {
  const user = await updateUser(
    db,
    id,
    { passwordHash: await unusablePasswordHash(), mustChangePassword: false },
    'password-changed',
  );
  if (user && options.factors) await db.delete(userFactors).where(eq(userFactors.userId, id));
  return user;
}

/** The password the owner chose through their invitation or reset link (hashed by the caller). */
export const setPasswordFromInvitation = (db: ConsoleDb, id: string, passwordHash: string) =>
  updateUser(db, id, { passwordHash, mustChangePassword: false }, 'password-changed');

export type CredentialCheck =
  | { ok: true; user: UserRow }
  | {
      ok: false;
      reason: 'invalid' | 'locked';
      /** Set when the client's address is over its limit (sign-in-throttle.ts): for the audit, never the answer. */
      addressThrottled?: true;
    };

/** When the account (known or not) is locked, the time it opens again; else null. */
export async function lockedUntil(db: ConsoleDb, email: string, now: Date): Promise<Date | null> {
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
 * Whether sign-in refuses this email from this client now: the account is locked, or the client's address has
 * made all the failed attempts it may (sign-in-throttle.ts). Both are always looked up, so neither the answer nor
 * the time it takes tells which one refused.
 */
export async function signInLocked(
  db: ConsoleDb,
  email: string,
  client: SignInClient | undefined,
  now: Date,
): Promise<{ locked: boolean; addressThrottled: boolean }> {
  const account = await lockedUntil(db, email, now);
  const address = client
    ? await addressThrottled(db, throttleKeyOf(client.address), client.failureLimit, now)
    : false;
  return { locked: Boolean(account) || address, addressThrottled: address };
}

function lockedAnswer(lock: { addressThrottled: boolean }): CredentialCheck {
  return lock.addressThrottled
    ? { ok: false, reason: 'locked', addressThrottled: true }
    : { ok: false, reason: 'locked' };
}

/**
 * Checks an email and password. The answer never tells an unknown email from a wrong password:
 * both burn one hash comparison, both count towards the lockout (the account's, and with `client` its address's).
 */
export async function checkCredentials(
  db: ConsoleDb,
  rawEmail: string,
  password: string,
  now = new Date(),
  options: { secondStepDue?: (user: UserRow) => boolean; client?: SignInClient } = {},
): Promise<CredentialCheck> {
  const email = rawEmail.trim().toLowerCase();
  const before = await signInLocked(db, email, options.client, now);
  if (before.locked) return lockedAnswer(before);
  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  const valid = user ? await verifyPassword(password, user.passwordHash) : await burnPasswordCheck(password);
  const succeeded = Boolean(user && valid && !user.disabledAt);
  // With a second factor still due, the success is recorded when that passes: a right password alone must not
  // wipe the count of wrong codes.
  if (!(succeeded && user && options.secondStepDue?.(user))) {
    await recordSignInAttempt(db, email, succeeded, now, options.client?.address);
  }
  if (succeeded && user) return { ok: true, user };
  const after = await signInLocked(db, email, options.client, now);
  if (after.locked) return lockedAnswer(after);
  return { ok: false, reason: 'invalid' };
}

/**
 * One sign-in attempt decided after the password (a second factor), or a step-up's: counts towards the account's
 * lockout like one, and towards its address's when the attempt was a sign-in from a known `clientAddress`.
 */
export async function recordSignInAttempt(
  db: ConsoleDb,
  rawEmail: string,
  succeeded: boolean,
  now = new Date(),
  clientAddress?: string | null,
) {
  await db.insert(loginAttempts).values({
    email: rawEmail.trim().toLowerCase(),
    succeeded,
    at: now,
    clientAddress: throttleKeyOf(clientAddress),
  });
}
