import 'server-only';
// One-time challenges: WebAuthn registration and assertion challenges, and a pending sign-in (the password was
// right, the second factor is still due). Each lives five minutes and is consumed when it is used.
import { randomBytes } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import { type AuthChallengeRow, authChallenges, type ConsoleDb } from '@/lib/db/schema';

const CHALLENGE_TTL_MS = 5 * 60 * 1000;

type Purpose = AuthChallengeRow['purpose'];

export async function createChallenge(
  db: ConsoleDb,
  input: { subject: string; purpose: Purpose; challenge?: string; payloadHash?: string; now?: number },
): Promise<AuthChallengeRow> {
  const now = input.now ?? Date.now();
  // Expired rows of anyone are swept here, so the table holds only minutes of them.
  await db.delete(authChallenges).where(lt(authChallenges.expiresAt, new Date(now)));
  const [row] = await db
    .insert(authChallenges)
    .values({
      subject: input.subject,
      purpose: input.purpose,
      challenge: input.challenge ?? randomBytes(32).toString('base64url'),
      payloadHash: input.payloadHash ?? null,
      expiresAt: new Date(now + CHALLENGE_TTL_MS),
    })
    .returning();
  return row!;
}

const live = (id: string, purpose: Purpose, now: number) =>
  and(
    eq(authChallenges.id, id),
    eq(authChallenges.purpose, purpose),
    gt(authChallenges.expiresAt, new Date(now)),
  );

/** A live challenge, left in place (a pending sign-in survives a mistyped code). */
export async function findChallenge(
  db: ConsoleDb,
  id: string,
  purpose: Purpose,
  now = Date.now(),
): Promise<AuthChallengeRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select()
    .from(authChallenges)
    .where(live(id, purpose, now))
    .limit(1);
  return row;
}

/** Consumes a live challenge: only the first caller gets it. */
export async function takeChallenge(
  db: ConsoleDb,
  id: string,
  purpose: Purpose,
  subject: string,
  now = Date.now(),
): Promise<AuthChallengeRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .delete(authChallenges)
    .where(and(live(id, purpose, now), eq(authChallenges.subject, subject)))
    .returning();
  return row;
}

export async function dropChallenge(db: ConsoleDb, id: string): Promise<void> {
  if (isUuid(id)) await db.delete(authChallenges).where(eq(authChallenges.id, id));
}

export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
