import 'server-only';
// Step-up. Revealing a private key and asking for a configuration change ask for the second factor again when this
// session last proved one more than five minutes ago. A decision (approve, reject, resubmit, a resolution) asks
// every time: each proof is a grant bound to that decision's payload hash, used once, by the session that proved it.
import { and, eq, gt } from 'drizzle-orm';
import { authChallenges, type ConsoleDb, userSessions } from '@/lib/db/schema';
import { sessionById } from '@/lib/server/sessions';
import { createChallenge, isUuid } from './challenges';

const STEP_UP_MAX_AGE_MS = 5 * 60 * 1000;

/** When the session last proved a second factor, if it did and still stands. */
export async function stepUpTime(db: ConsoleDb, sessionId: string): Promise<Date | null> {
  if (!sessionId) return null;
  const row = await sessionById(db, sessionId);
  if (!row || row.endedAt) return null;
  return row.stepUpAt;
}

export function isFreshStepUp(at: Date | null, now = Date.now()): boolean {
  if (!at) return false;
  const age = now - at.getTime();
  return age >= 0 && age <= STEP_UP_MAX_AGE_MS;
}

/** The person asks to be asked again: the next decision in this session needs the second factor. */
export async function forgetStepUp(db: ConsoleDb, sessionId: string): Promise<void> {
  if (!isUuid(sessionId)) return;
  await db.update(userSessions).set({ stepUpAt: null }).where(eq(userSessions.id, sessionId));
}

/** A second factor proved just now for `payloadHash`, in this session: one decision bound to that hash may use it. */
export async function grantDecision(
  db: ConsoleDb,
  proof: { userId: string; sessionId: string; payloadHash: string; now?: number },
): Promise<void> {
  if (!isUuid(proof.sessionId)) return;
  await createChallenge(db, {
    subject: proof.userId,
    purpose: 'decision',
    challenge: proof.sessionId,
    payloadHash: proof.payloadHash,
    ...(proof.now === undefined ? {} : { now: proof.now }),
  });
}

/**
 * Uses the grant of a decision: true when this person proved their second factor for exactly this payload hash in
 * this session within the last minutes, and no other decision has used that proof. Only the first caller wins.
 */
export async function takeDecisionGrant(
  db: ConsoleDb,
  use: { userId: string; sessionId: string; payloadHash: string; now?: number },
): Promise<boolean> {
  if (!isUuid(use.sessionId)) return false;
  const taken = await db
    .delete(authChallenges)
    .where(
      and(
        eq(authChallenges.purpose, 'decision'),
        eq(authChallenges.subject, use.userId),
        eq(authChallenges.challenge, use.sessionId),
        eq(authChallenges.payloadHash, use.payloadHash),
        gt(authChallenges.expiresAt, new Date(use.now ?? Date.now())),
      ),
    )
    .returning({ id: authChallenges.id });
  return taken.length > 0;
}
