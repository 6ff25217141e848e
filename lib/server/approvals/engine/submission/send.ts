import 'server-only';
// Sending an approved request upstream exactly once: the claim is one conditional update, what the service
// answers is recorded, and a lost or late answer becomes an unknown outcome for reconciliation.
import { and, asc, eq } from 'drizzle-orm';
import { CustodyError } from '@/lib/custody';
import { type OperationRequestRow, operationApprovals, operationRequests } from '@/lib/db/schema';
import { destinationRefusal } from '../../destinations';
import { hashPayload } from '../../hash';
import { lookUpTransactions } from '../../lookup';
import { operationType } from '../../operations/registry';
import {
  type LocalExecuteContext,
  type LocalOutcome,
  LocalRefusal,
  type SubmitOutcome,
  SubmitRefusal,
} from '../../operations/types';
import type { EngineContext } from '../context';
import { type EngineActor, log, PAYLOAD_CHANGED, SYSTEM_ACTOR } from '../types';
import { type Claimed, claim, submittingActor } from './claim';
import { finish, recordChange, recordSubmitted, refuseBeforeSending, updateItems } from './record';

/**
 * Claims an APPROVED request for submission (one conditional update) and sends it; returns the new status.
 * The claim, its `submitting` event and the read of the stored items are one transaction.
 */
export async function submitApproved(
  ctx: EngineContext,
  id: string,
  actor: EngineActor = SYSTEM_ACTOR,
  twoFactorCode?: string,
): Promise<string | undefined> {
  const { db, findRequest } = ctx;
  const typeKey = (await findRequest(id))?.type ?? '';
  const claimed = await db.transaction((tx) => claim(ctx, tx, id, typeKey, actor));
  if (!claimed) return (await findRequest(id))?.status;
  return runSubmission(ctx, claimed.row, actor, twoFactorCode, claimed);
}

export async function submitAllApproved(ctx: EngineContext): Promise<number> {
  const { db } = ctx;
  const rows = await db
    .select({ id: operationRequests.id })
    .from(operationRequests)
    .where(eq(operationRequests.status, 'APPROVED'))
    .orderBy(asc(operationRequests.createdAt))
    .limit(200);
  let n = 0;
  for (const { id } of rows) if ((await submitApproved(ctx, id)) !== 'APPROVED') n++;
  return n;
}

/** `claimed`: the claim already wrote the `submitting` event and read the items. */
export async function runSubmission(
  ctx: EngineContext,
  row: OperationRequestRow,
  actor: EngineActor,
  twoFactorCode?: string,
  claimed?: Claimed,
): Promise<string> {
  const {
    db,
    now,
    startFollowing,
    audit,
    event,
    notify,
    transition,
    clientFor,
    itemsOf,
    configuration,
    capabilities,
    alerts,
  } = ctx;
  if (!claimed) await event(row.id, 'submitting', submittingActor(actor), { attempt: row.submitAttempts });
  const operation = operationType(row.type)?.parse(row.payload) ?? null;
  if (!operation || hashPayload(row.payload) !== row.payloadHash) {
    await transition(row.id, 'SUBMITTING', 'SUBMIT_FAILED', { lastError: PAYLOAD_CHANGED });
    await event(row.id, 'submit_refused', null, { reason: 'payload hash mismatch' });
    await audit(actor, `${row.type}.submit`, 'refused', row.id, { reason: 'payload hash mismatch' });
    await notify(row.requesterId, row.id, `Your request was not sent: ${PAYLOAD_CHANGED}`);
    await alerts.requestFailed(row, `Your request was not sent: ${PAYLOAD_CHANGED}`, row.submitAttempts);
    return 'SUBMIT_FAILED';
  }
  // The address book's rules once more, just before anything is sent or carried out (the book may have changed
  // since the final approval: a request the freeze held, a resubmission).
  const refused = await destinationRefusal(db, row.type, row.walletId, row.payload, row.review, now());
  if (refused) return refuseBeforeSending(ctx, row, actor, `${refused} Nothing was sent.`);
  if (operation.local) return runLocal(ctx, row, operation.local.execute, actor);
  const target = await clientFor(row.walletId);
  if (!target) {
    const message = 'The wallet is no longer connected to the console.';
    await transition(row.id, 'SUBMITTING', 'SUBMIT_FAILED', { lastError: message });
    await event(row.id, 'submit_failed', null, { message });
    await audit(actor, `${row.type}.submit`, 'failed', row.id, { message });
    await alerts.requestFailed(row, `Your request was not sent: ${message}`, row.submitAttempts);
    return 'SUBMIT_FAILED';
  }
  // What was stored at creation is what is sent, every time: reconciliation looks these up.
  const stored = claimed?.items ?? (await itemsOf(row.id));
  const references = stored.map((i) => i.reference);
  const type = operationType(row.type);
  let outcome: SubmitOutcome;
  try {
    outcome = await operation.submit({
      client: target.client,
      walletId: row.walletId,
      requestId: row.id,
      references,
      review: row.review,
      ...(twoFactorCode ? { twoFactorCode } : {}),
      previous: row.result ?? null,
      saveProgress: async (result, items) => {
        await updateItems(ctx, row.id, items);
        const kept = await db
          .update(operationRequests)
          .set({ result: result as never, updatedAt: now() })
          .where(and(eq(operationRequests.id, row.id), eq(operationRequests.status, 'SUBMITTING')))
          .returning({ id: operationRequests.id });
        // Taken for stuck meanwhile: what is sent next would not be recorded, so nothing more is sent.
        if (kept.length === 0) throw new Error('The request is no longer being submitted here.');
      },
      findItem: async (index) => {
        const item = stored.find((i) => i.index === index);
        if (!item) return { found: null, conclusive: false };
        const missing = await capabilities.missing(row.walletId);
        const result = await lookUpTransactions(
          target.client,
          {
            walletId: row.walletId,
            addressId: row.addressId,
            reference: item.reference,
            transactionId: item.transactionId,
          },
          {
            missing,
            onMissing: (name) => capabilities.markMissing(row.walletId, name),
            isMissingEndpoint: capabilities.isMissingEndpoint,
          },
        );
        const tx = result.transactions.find((t) => type?.executed(t) ?? true);
        return {
          conclusive: result.conclusive,
          found: tx
            ? {
                index,
                transactionId: tx.id,
                hash: tx.hash,
                status: tx.status,
                confirmations: tx.confirmations,
              }
            : null,
        };
      },
      openSealed: (sealed, binding) => configuration.open(sealed, binding),
    });
  } catch (error) {
    if (error instanceof SubmitRefusal) {
      // The kind stopped before sending anything (a swap whose fresh quote fell below the approved minimum).
      await transition(row.id, 'SUBMITTING', 'SUBMIT_FAILED', { lastError: error.message });
      await event(row.id, 'submit_failed', null, { message: error.message });
      await audit(actor, `${row.type}.submit`, 'refused', row.id, { message: error.message });
      await notify(row.requesterId, row.id, `Your request was not sent: ${error.message}`);
      return 'SUBMIT_FAILED';
    }
    const known = error instanceof CustodyError;
    if (known && !error.outcomeUnknown) {
      // An upstream 4xx: the service refused, so nothing happened there; a person may send it again.
      await transition(row.id, 'SUBMITTING', 'SUBMIT_FAILED', { lastError: error.message });
      await event(row.id, 'submit_failed', null, { message: error.message, status: error.status });
      await audit(actor, `${row.type}.submit`, 'failed', row.id, {
        message: error.message,
        status: error.status,
      });
      await notify(row.requesterId, row.id, `Your request was refused upstream: ${error.message}`);
      await alerts.requestFailed(
        row,
        `Your request was refused upstream: ${error.message}`,
        row.submitAttempts,
      );
      return 'SUBMIT_FAILED';
    }
    // Timeout, network failure, 5xx or anything unexpected after the call began: the service may have
    // acted. Never resend blind; the reconciler looks the references up.
    const message = known ? error.message : 'The submission did not complete';
    if (!known) log.error({ err: error, requestId: row.id }, 'submission failed unexpectedly');
    await transition(row.id, 'SUBMITTING', 'OUTCOME_UNKNOWN', { lastError: message, ...startFollowing() });
    await event(row.id, 'outcome_unknown', null, { message });
    await audit(actor, `${row.type}.submit`, 'unknown', row.id, { message });
    return 'OUTCOME_UNKNOWN';
  }
  await recordSubmitted(ctx, row, outcome, actor);
  if (outcome.change) await recordChange(ctx, row, outcome.change);
  return outcome.final ?? 'SUBMITTED';
}

/**
 * A configuration change: the console carries it out itself, once (the claim above is one conditional
 * update), and the request is final at once. A secret it produces stays sealed with the result.
 */
async function runLocal(
  ctx: EngineContext,
  row: OperationRequestRow,
  execute: (context: LocalExecuteContext) => Promise<LocalOutcome>,
  actor: EngineActor,
): Promise<string> {
  const { db, now, audit, event, notify, transition, configuration, getPolicy, alerts } = ctx;
  let outcome: LocalOutcome;
  try {
    outcome = await execute({
      db,
      requestId: row.id,
      requester: { id: row.requesterId, email: row.requesterEmail },
      now: now(),
      services: configuration,
      getPolicy,
      submitHeld: () => submitAllApproved(ctx),
      approverIds: async () =>
        (
          await db
            .select({ id: operationApprovals.approverId })
            .from(operationApprovals)
            .where(and(eq(operationApprovals.requestId, row.id), eq(operationApprovals.decision, 'approve')))
        ).map((a) => a.id),
    });
  } catch (error) {
    const refused = error instanceof LocalRefusal;
    const message = refused ? error.message : 'The change could not be made.';
    if (!refused) log.error({ err: error, requestId: row.id }, 'configuration change failed');
    await transition(row.id, 'SUBMITTING', 'SUBMIT_FAILED', { lastError: message });
    await event(row.id, 'submit_failed', null, { message });
    await audit(actor, `${row.type}.submit`, 'failed', row.id, { message });
    await notify(row.requesterId, row.id, `Your request could not be carried out: ${message}`);
    await alerts.requestFailed(row, `Your request could not be carried out: ${message}`, row.submitAttempts);
    return 'SUBMIT_FAILED';
  }
  const stored = outcome.sealed ? { ...outcome.result, sealed: outcome.sealed } : { ...outcome.result };
  await transition(row.id, 'SUBMITTING', 'SUBMITTED', { result: stored });
  await event(row.id, 'submitted', null, { carriedOut: true });
  // The change itself, in the console's name on the requester's behalf; never a secret.
  await audit(SYSTEM_ACTOR, outcome.audit.action, 'success', outcome.audit.target, {
    ...outcome.audit.input,
    request: row.id,
    requestedBy: row.requesterEmail,
  });
  await audit(actor, `${row.type}.submit`, 'success', row.id);
  // Every kind the console carries out itself is a configuration change: each one alerts, whatever it changes.
  await alerts.configurationChanged({
    key: `request:${row.id}`,
    summary: row.summary,
    by: row.requesterEmail,
    path: `/approvals/${row.id}`,
  });
  await finish(ctx, row, 'SUCCESS');
  return 'SUCCESS';
}
