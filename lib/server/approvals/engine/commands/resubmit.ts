import 'server-only';
// An approver sends a request again after a refusal upstream or a concluded "not executed".
import { and, eq, or, sql } from 'drizzle-orm';
import { CustodyError } from '@/lib/custody';
import { type OperationRequestRow, operationRequests } from '@/lib/db/schema';
import { WALLET_NOT_CONNECTED } from '../../../errors';
import { independenceRefusal } from '../../independence';
import { operationType } from '../../operations/registry';
import type { RequestStatus } from '../../states';
import type { EngineContext } from '../context';
import { lookUpItems } from '../reconciliation/lookup';
import { recordSubmitted } from '../submission/record';
import { runSubmission } from '../submission/send';
import { type DecisionProof, type EngineActor, fail, PROOF_REQUIRED, SYSTEM_ACTOR, utcTime } from '../types';

/**
 * An approver sends again: after an upstream refusal (SUBMIT_FAILED), or after "not executed" was
 * concluded (by lookups past the window, or by two people). The same references go again, the service is
 * looked up once more just before sending, and for an unknown outcome the approver confirms in words
 * what was checked (`acknowledged`).
 */
export async function resubmit(
  ctx: EngineContext,
  {
    actor,
    id,
    twoFactorCode,
    options = {},
  }: {
    actor: EngineActor;
    id: string;
    twoFactorCode?: string;
    options?: { acknowledged?: boolean; proof?: DecisionProof };
  },
) {
  const {
    db,
    now,
    audit,
    event,
    transition,
    findRequest,
    mayAct,
    notFrozen,
    clientFor,
    isFrozen,
    itemsOf,
    windowEndOf,
  } = ctx;
  const row = await findRequest(id);
  if (!row) return fail('No such request.', 404);
  const type = operationType(row.type);
  if (!type) return fail('Unknown operation type.', 422);
  if (!(await mayAct(actor, type.permissions.approve))) {
    await audit(actor, `${type.key}.resubmit`, 'denied', id);
    return fail('You do not have permission to do this.', 403);
  }
  if (row.requesterId === actor.id) return fail('Another approver must resubmit your request.', 403);
  const standsIn = await independenceRefusal(db, actor.id, row.requesterId);
  if (standsIn) {
    await audit(actor, `${type.key}.resubmit`, 'denied', id, {
      reason: 'not independent of the requester',
    });
    return fail(standsIn, 403);
  }
  const proved = async () => !options.proof || (await options.proof());
  if (type.scope === 'console') {
    // A configuration change the console refused (the email was taken meanwhile, say): carry it out again.
    if (row.status !== 'SUBMIT_FAILED') return fail('This request cannot be resubmitted now.');
    if (!(await proved())) return fail(PROOF_REQUIRED, 401);
    const again = await transition(id, 'SUBMIT_FAILED', 'SUBMITTING', {
      submitAttempts: sql`${operationRequests.submitAttempts} + 1` as never,
      lastAttemptAt: now(),
      lastError: null,
    });
    if (!again) return fail('This request cannot be resubmitted now.');
    await audit(actor, `${type.key}.resubmit`, 'success', id, { attempt: again.submitAttempts });
    return { ok: true as const, data: { status: await runSubmission(ctx, again, actor) } };
  }
  if (await isFrozen())
    return fail('The console is frozen: nothing is submitted until an admin lifts the freeze.');
  if (row.status === 'OUTCOME_UNKNOWN' && !row.confirmedAbsentAt)
    return fail(
      `The outcome is not known yet: the console can conclude "not executed" after ${utcTime(windowEndOf(row))}. Nothing was sent.`,
    );
  if (row.status === 'OUTCOME_UNKNOWN' && options.acknowledged !== true)
    return fail('Confirm what was checked before resubmitting. Nothing was sent.', 422);
  if (row.status !== 'SUBMIT_FAILED' && row.status !== 'OUTCOME_UNKNOWN')
    return fail('This request cannot be resubmitted now.');
  if (!(await proved())) return fail(PROOF_REQUIRED, 401);
  // One more look just before sending: a late execution found now is linked instead of paid again.
  const target = await clientFor(row.walletId);
  if (!target) return fail(`${WALLET_NOT_CONNECTED} Nothing was sent.`);
  let looked: Awaited<ReturnType<typeof lookUpItems>>;
  // A kind sent in several calls: only the call in doubt is looked up (the accepted ones exist upstream).
  const inDoubt = type.inDoubt?.(row.result) ?? null;
  const items = await itemsOf(id);
  try {
    looked = await lookUpItems(
      ctx,
      row,
      inDoubt ? items.filter((i) => inDoubt.includes(i.index)) : items,
      target.client,
    );
  } catch (error) {
    const message = error instanceof CustodyError ? error.message : 'the lookup failed';
    return fail(
      `Could not check the custody service just before sending (${message}). Nothing was sent.`,
      502,
    );
  }
  if (looked.duplicate)
    return fail('Two upstream transactions already carry this reference: nothing was sent.');
  const { found, checked } = looked;
  // A kind sent in several calls links what it finds itself, call by call, and sends only the rest.
  if (found.length > 0 && !inDoubt) {
    await event(id, 'reconciled', actor.email, { found: found.length, via: 'check before resubmission' });
    await audit(actor, `${type.key}.resubmit`, 'linked', id, {
      transactions: found.map((f) => f.transactionId),
    });
    await recordSubmitted(ctx, row, { items: found }, SYSTEM_ACTOR, row.status as RequestStatus);
    return fail(
      'The custody service already has this transaction: it was linked to the request and nothing was sent again.',
    );
  }
  const claimed = await transition(
    id,
    ['SUBMIT_FAILED', 'OUTCOME_UNKNOWN'],
    'SUBMITTING',
    {
      submitAttempts: sql`${operationRequests.submitAttempts} + 1` as never,
      lastAttemptAt: now(),
      lastError: null,
      confirmedAbsentAt: null,
      lastLookupAt: null,
      resolutionProposal: null,
    },
    and(
      notFrozen,
      eq(operationRequests.status, row.status),
      or(
        eq(operationRequests.status, 'SUBMIT_FAILED'),
        sql`${operationRequests.confirmedAbsentAt} is not null`,
      ),
    ),
  );
  if (!claimed) return fail('This request cannot be resubmitted now.');
  await audit(actor, `${type.key}.resubmit`, 'success', id, {
    attempt: claimed.submitAttempts,
    checkedBeforeSending: checked.map((c) => c.via.join(', ')),
    ...(row.status === 'OUTCOME_UNKNOWN'
      ? {
          acknowledged: resubmitAcknowledgement(
            ctx,
            row,
            checked.every((c) => c.conclusive),
          ),
        }
      : {}),
  });
  const status = await runSubmission(ctx, claimed, actor, twoFactorCode);
  return { ok: true as const, data: { status: status ?? 'SUBMITTING' } };
}

/** The words an approver confirms before resubmitting a request whose first outcome was unknown. */
function resubmitAcknowledgement(ctx: EngineContext, row: OperationRequestRow, lookedUp: boolean): string {
  const { unknownOutcomeWindowMs } = ctx;
  const proposal = row.resolutionProposal as { verdict?: string; byEmail?: string } | null;
  const how = lookedUp
    ? `the custody service showed no transaction with this request's references, checked ${Math.round(unknownOutcomeWindowMs / 60_000)} minutes or more after the last attempt and again just now`
    : `two people confirmed by hand that it was not executed${proposal?.byEmail ? ` (recorded by ${proposal.byEmail})` : ''}`;
  return `I resubmit with the same references because ${how}.`;
}
