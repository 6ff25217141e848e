import 'server-only';
// Step-up: decisions (approve, reject, resubmit, resolutions), revealing a private key and configuration changes
// ask for the second factor again when this session last proved one more than five minutes ago.
import { eq } from 'drizzle-orm';
import { type ConsoleDb, userSessions } from '@/lib/db/schema';
import { sessionById } from '@/lib/server/sessions';
import { isUuid } from './challenges';

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
