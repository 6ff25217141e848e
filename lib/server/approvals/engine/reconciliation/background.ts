import 'server-only';
// The background work: expiry, submission after a thaw, stuck submissions and the follow-ups that are due.
import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import { operationRequests } from '@/lib/db/schema';
import { isExpired } from '../../policy';
import type { EngineContext } from '../context';
import { submitAllApproved, submitApproved } from '../submission/send';
import { log, SYSTEM_ACTOR } from '../types';
import { followUpRound } from './follow-up';

/** Brings one request up to date without calling the service: expiry, and submission after a thaw. */
export async function sync(ctx: EngineContext, id: string): Promise<void> {
  const { now, findRequest } = ctx;
  const row = await findRequest(id);
  if (!row) return;
  try {
    if (row.status === 'PENDING_APPROVAL' && isExpired(row.expiresAt, now())) await expireDue(ctx);
    else if (row.status === 'APPROVED') await submitApproved(ctx, id);
  } catch (error) {
    log.warn({ err: error, requestId: id }, 'could not bring the request up to date');
  }
}

export async function expireDue(ctx: EngineContext): Promise<number> {
  const { db, now, audit, event, notify, alerts } = ctx;
  const at = now();
  const rows = await db
    .update(operationRequests)
    .set({ status: 'EXPIRED', updatedAt: at })
    .where(and(eq(operationRequests.status, 'PENDING_APPROVAL'), lte(operationRequests.expiresAt, at)))
    .returning();
  for (const row of rows) {
    await event(row.id, 'expired', null);
    await audit(SYSTEM_ACTOR, `${row.type}.expire`, 'success', row.id);
    await notify(row.requesterId, row.id, `Your request expired before it was approved: ${row.summary}`);
    await alerts.requestFailed(row, 'Your request expired before it was approved', 'expired');
  }
  return rows.length;
}

/** One round of background work: expiry, thaw submissions, stuck submissions, follow-ups that are due. */
export async function tick(ctx: EngineContext): Promise<void> {
  const { db, now, stuckSubmittingMs, startFollowing, event, transition, isFrozen } = ctx;
  await expireDue(ctx);
  if (!(await isFrozen())) await submitAllApproved(ctx);
  const stuckBefore = new Date(now().getTime() - stuckSubmittingMs);
  const stuck = await db
    .select()
    .from(operationRequests)
    .where(and(eq(operationRequests.status, 'SUBMITTING'), lte(operationRequests.updatedAt, stuckBefore)))
    .limit(50);
  for (const row of stuck) {
    if (
      await transition(row.id, 'SUBMITTING', 'OUTCOME_UNKNOWN', {
        lastError: 'The submission was interrupted',
        ...startFollowing(),
      })
    )
      await event(row.id, 'outcome_unknown', null, { message: 'The submission was interrupted' });
  }
  const due = await db
    .select({ id: operationRequests.id })
    .from(operationRequests)
    .where(
      and(
        inArray(operationRequests.status, ['OUTCOME_UNKNOWN', 'SUBMITTED']),
        isNull(operationRequests.followUpParkedAt),
        or(isNull(operationRequests.nextFollowUpAt), lte(operationRequests.nextFollowUpAt, now())),
      ),
    )
    .orderBy(asc(operationRequests.nextFollowUpAt))
    .limit(50);
  for (const row of due) await followUpRound(ctx, row.id);
}
