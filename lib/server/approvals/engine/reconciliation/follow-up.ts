import 'server-only';
// Following submitted requests and reconciling unknown outcomes: the follow-up rounds and their lease.
import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { backoffDelay } from '@/lib/backoff';
import type { CustodyClient } from '@/lib/custody';
import { type OperationRequestRow, operationRequests } from '@/lib/db/schema';
import { operationType } from '../../operations/registry';
import type { EngineContext } from '../context';
import { recordSubmitted } from '../submission/record';
import { runSubmission } from '../submission/send';
import { log, SYSTEM_ACTOR } from '../types';
import { applyTransaction, duplicateOf, finishIfSettled, lookUp, lookUpItems, markDuplicate } from './lookup';

/** SUBMITTED: reads each unsettled item's transaction; finishes when all settled. True when anything moved. */
async function followSubmitted(
  ctx: EngineContext,
  row: OperationRequestRow,
  client: CustodyClient,
): Promise<boolean> {
  const { itemsOf } = ctx;
  let changed = false;
  for (const item of await itemsOf(row.id)) {
    if (item.status === 'SUCCESS' || item.status === 'FAILED') continue;
    const result = await lookUp(ctx, row, item, client);
    if (duplicateOf(result.transactions)) {
      await markDuplicate(ctx, row, item.reference, result.transactions);
      return true;
    }
    const tx = result.transactions[0];
    if (tx && (await applyTransaction(ctx, row.id, item, tx))) changed = true;
  }
  await finishIfSettled(ctx, row);
  return changed;
}

/**
 * OUTCOME_UNKNOWN: looks every reference up. What exists is linked (SUBMITTED, then followed). "Not
 * executed" is concluded only when lookups that would show the transaction answered AND the window since
 * the attempt has passed; until then nobody is offered a resubmission.
 */
async function reconcileUnknown(
  ctx: EngineContext,
  row: OperationRequestRow,
  client: CustodyClient,
): Promise<boolean> {
  const {
    db,
    now,
    unknownOutcomeWindowMs,
    event,
    transition,
    notFrozen,
    itemsOf,
    windowEndOf,
    notifyApprovers,
  } = ctx;
  const inDoubt = operationType(row.type)?.inDoubt?.(row.result) ?? null;
  const all = await itemsOf(row.id);
  // A kind sent in several calls: only the call whose answer was lost is in doubt; the ones before it
  // were accepted and the ones after it never sent.
  const items = inDoubt ? all.filter((i) => inDoubt.includes(i.index)) : all;
  const looked = await lookUpItems(ctx, row, items, client);
  if (looked.duplicate) return true;
  const { found } = looked;
  const conclusive = looked.checked.every((c) => c.conclusive);
  if (inDoubt && found.length > 0) {
    // The call in doubt was executed: go on with the calls never sent. The kind links what it finds and
    // skips every call its progress records as accepted, so nothing is sent twice.
    await event(row.id, 'reconciled', null, { found: found.length, of: items.length, resuming: true });
    const claimed = await transition(
      row.id,
      'OUTCOME_UNKNOWN',
      'SUBMITTING',
      {
        submitAttempts: sql`${operationRequests.submitAttempts} + 1` as never,
        lastAttemptAt: now(),
        lastError: null,
        nextFollowUpAt: null,
      },
      notFrozen,
    );
    if (claimed) await runSubmission(ctx, claimed, SYSTEM_ACTOR);
    return true;
  }
  if (found.length > 0) {
    await event(row.id, 'reconciled', null, { found: found.length, of: items.length });
    // Kinds whose answer is final (sign-only withdrawal) settle on what was found.
    const final = operationType(row.type)?.finalWhenFound(found) ?? null;
    await recordSubmitted(
      ctx,
      row,
      { items: found, ...(final ? { final } : {}) },
      SYSTEM_ACTOR,
      'OUTCOME_UNKNOWN',
    );
    return true;
  }
  if (!conclusive) return false;
  const at = now();
  const windowPassed = at.getTime() >= windowEndOf(row).getTime();
  const [marked] = await db
    .update(operationRequests)
    .set({ lastLookupAt: at, ...(windowPassed ? { confirmedAbsentAt: at } : {}) })
    .where(
      and(
        eq(operationRequests.id, row.id),
        eq(operationRequests.status, 'OUTCOME_UNKNOWN'),
        isNull(operationRequests.confirmedAbsentAt),
      ),
    )
    .returning({ id: operationRequests.id });
  if (marked && windowPassed) {
    await event(row.id, 'confirmed_absent', null, {
      references: items.map((i) => i.reference),
      windowMinutes: Math.round(unknownOutcomeWindowMs / 60_000),
    });
    await notifyApprovers(
      row,
      `Not executed: the custody service shows no transaction for this request ${Math.round(unknownOutcomeWindowMs / 60_000)} minutes after the attempt; an approver may resubmit it (${row.summary}).`,
    );
    return true;
  }
  return false;
}

/**
 * When the next round is due: 2 s doubling to 5 min, sooner when something moved. After `maxRounds` quiet
 * rounds the request parks: it waits for a webhook or a person, and says so.
 */
function nextRound(ctx: EngineContext, row: OperationRequestRow, changed: boolean) {
  const { now, followUp, windowEndOf } = ctx;
  const at = now().getTime();
  const attempts = changed ? 0 : row.followUpAttempts + 1;
  let next = at + backoffDelay(attempts, { baseMs: followUp.baseMs, capMs: followUp.maxMs });
  let parked = false;
  if (row.status === 'OUTCOME_UNKNOWN') {
    if (row.confirmedAbsentAt) parked = true;
    else {
      // Always look once more right after the window ends: that answer may settle it.
      const windowEnd = windowEndOf(row).getTime();
      if (at < windowEnd) next = Math.min(next, windowEnd + 1_000);
      else if (attempts >= followUp.maxRounds) parked = true;
    }
  } else if (attempts >= followUp.maxRounds) parked = true;
  return {
    followUpAttempts: attempts,
    nextFollowUpAt: parked ? null : new Date(next),
    followUpParkedAt: parked ? now() : null,
  };
}

/** Claims the next round of a request: one conditional update, so one round runs at a time per request. */
async function claimRound(ctx: EngineContext, id: string, force: boolean) {
  const { db, now, followUp } = ctx;
  const at = now();
  const due = or(isNull(operationRequests.nextFollowUpAt), lte(operationRequests.nextFollowUpAt, at));
  // A person's "check now" may take over a waiting or parked request, never a round in progress.
  const free = or(
    isNull(operationRequests.followUpLeaseUntil),
    lte(operationRequests.followUpLeaseUntil, at),
  );
  const [row] = await db
    .update(operationRequests)
    .set({ followUpLeaseUntil: new Date(at.getTime() + followUp.leaseMs), followUpParkedAt: null })
    .where(
      and(
        eq(operationRequests.id, id),
        inArray(operationRequests.status, ['SUBMITTED', 'OUTCOME_UNKNOWN']),
        free,
        force ? undefined : and(due, isNull(operationRequests.followUpParkedAt)),
      ),
    )
    .returning();
  return row;
}

/**
 * One follow-up round of a SUBMITTED or OUTCOME_UNKNOWN request. At most one lookup per request is in
 * flight: shared within this process, and claimed through the database across instances.
 */
export function followUpRound(
  ctx: EngineContext,
  id: string,
  options: { force?: boolean } = {},
): Promise<string | undefined> {
  const { rounds } = ctx;
  const running = rounds.get(id);
  if (running) return running;
  const round = runRound(ctx, id, options.force === true).finally(() => rounds.delete(id));
  rounds.set(id, round);
  return round;
}

async function runRound(ctx: EngineContext, id: string, force: boolean): Promise<string | undefined> {
  const { db, event, findRequest, clientFor } = ctx;
  const row = await claimRound(ctx, id, force);
  if (!row) return (await findRequest(id))?.status;
  let changed = false;
  try {
    const target = await clientFor(row.walletId);
    if (target) {
      changed =
        row.status === 'SUBMITTED'
          ? await followSubmitted(ctx, row, target.client)
          : await reconcileUnknown(ctx, row, target.client);
    }
  } catch (error) {
    // The service did not answer the lookup: nothing is concluded from it; the next round tries again.
    log.warn({ err: error, requestId: id }, 'follow-up lookup failed');
  }
  const current = await findRequest(id);
  if (!current || (current.status !== 'SUBMITTED' && current.status !== 'OUTCOME_UNKNOWN')) {
    await db.update(operationRequests).set({ followUpLeaseUntil: null }).where(eq(operationRequests.id, id));
    return current?.status;
  }
  const schedule = nextRound(ctx, current, changed || current.status !== row.status);
  await db
    .update(operationRequests)
    .set({ ...schedule, followUpLeaseUntil: null })
    .where(and(eq(operationRequests.id, id), eq(operationRequests.status, current.status)));
  // A request settled as "not found" stops polling by design; only a follow-up that gave up is news.
  if (schedule.followUpParkedAt && !current.followUpParkedAt && !current.confirmedAbsentAt)
    await event(id, 'follow_up_parked', null, { rounds: schedule.followUpAttempts });
  return current.status;
}
