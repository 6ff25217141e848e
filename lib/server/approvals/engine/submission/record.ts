import 'server-only';
// What a submission leaves behind: the service's answer on the items, SUBMITTED and its event, the final
// outcome, a refusal before sending and a change of the service's settings.
import { and, eq } from 'drizzle-orm';
import { type OperationRequestRow, operationItems } from '@/lib/db/schema';
import type { SubmitOutcome } from '../../operations/types';
import type { RequestStatus } from '../../states';
import type { EngineContext } from '../context';
import { type EngineActor, type Executor, SYSTEM_ACTOR } from '../types';

/**
 * The address book's rules refused the request before anything was sent: SUBMIT_FAILED with the sentence, and a
 * person may send it again once the book allows it.
 */
export async function refuseBeforeSending(
  ctx: EngineContext,
  row: OperationRequestRow,
  actor: EngineActor,
  message: string,
) {
  const { audit, event, notify, transition } = ctx;
  await transition(row.id, 'SUBMITTING', 'SUBMIT_FAILED', { lastError: message });
  await event(row.id, 'submit_failed', null, { message });
  await audit(actor, `${row.type}.submit`, 'refused', row.id, { message });
  await notify(row.requesterId, row.id, `Your request was not sent: ${message}`);
  return 'SUBMIT_FAILED';
}

/** A change of the service's settings: its own audit entry, and an alert like every configuration change. */
export async function recordChange(
  ctx: EngineContext,
  row: OperationRequestRow,
  change: NonNullable<SubmitOutcome['change']>,
) {
  const { audit, alerts } = ctx;
  await audit(SYSTEM_ACTOR, change.action, 'success', change.target, {
    ...change.input,
    walletId: row.walletId,
    request: row.id,
    requestedBy: row.requesterEmail,
  });
  await alerts.configurationChanged({
    key: `request:${row.id}`,
    summary: row.summary,
    by: row.requesterEmail,
    path: `/approvals/${row.id}`,
  });
}

export async function updateItems(
  ctx: EngineContext,
  requestId: string,
  items: SubmitOutcome['items'],
  executor: Executor = ctx.db,
) {
  const { now } = ctx;
  for (const item of items) {
    await executor
      .update(operationItems)
      .set({
        ...(item.transactionId !== undefined ? { transactionId: item.transactionId } : {}),
        ...(item.hash !== undefined ? { hash: item.hash } : {}),
        ...(item.status !== undefined ? { status: item.status } : {}),
        ...(item.confirmations !== undefined ? { confirmations: item.confirmations } : {}),
        ...(item.error !== undefined ? { error: item.error } : {}),
        updatedAt: now(),
      })
      .where(and(eq(operationItems.requestId, requestId), eq(operationItems.index, item.index)));
  }
}

export async function recordSubmitted(
  ctx: EngineContext,
  row: OperationRequestRow,
  outcome: SubmitOutcome,
  actor: EngineActor,
  from: RequestStatus = 'SUBMITTING',
) {
  const { db, startFollowing, audit, event, notify, moved } = ctx;
  // What the service answered, the status change and its event: one transaction.
  const submitted = await db.transaction(async (tx) => {
    await updateItems(ctx, row.id, outcome.items, tx);
    const done = await moved(
      row.id,
      from,
      'SUBMITTED',
      { ...(outcome.result ? { result: outcome.result } : {}), ...startFollowing() },
      tx,
    );
    if (done)
      await event(
        row.id,
        'submitted',
        null,
        {
          transactions: outcome.items
            .filter((i) => i.transactionId)
            .map((i) => ({ index: i.index, id: i.transactionId, hash: i.hash ?? null })),
        },
        tx,
      );
    return done;
  });
  if (!submitted) return;
  await audit(actor, `${row.type}.submit`, 'success', row.id, {
    transactions: outcome.items.map((i) => i.transactionId).filter(Boolean),
  });
  if (outcome.final) {
    await finish(ctx, row, outcome.final);
    return;
  }
  await notify(row.requesterId, row.id, `Your request was submitted: ${row.summary}`);
  // The follow-up (background rounds and webhooks) finds the rest of a batch by reference and settles it.
}

export async function finish(ctx: EngineContext, row: OperationRequestRow, outcome: 'SUCCESS' | 'FAILED') {
  const { audit, event, notify, moved, alerts } = ctx;
  const done = await moved(row.id, 'SUBMITTED', outcome, {
    nextFollowUpAt: null,
    followUpParkedAt: null,
  });
  if (!done) return;
  await event(row.id, outcome === 'SUCCESS' ? 'succeeded' : 'failed', null);
  await audit(SYSTEM_ACTOR, `${row.type}.outcome`, outcome === 'SUCCESS' ? 'success' : 'failed', row.id);
  await notify(
    row.requesterId,
    row.id,
    outcome === 'SUCCESS'
      ? `Your request succeeded: ${row.summary}`
      : `Your request failed upstream: ${row.summary}`,
  );
  if (outcome === 'FAILED') await alerts.requestFailed(row, 'Your request failed upstream', 'outcome');
}
