import 'server-only';
// Sending an approved request upstream exactly once: the claim is one conditional update, what the service
// answers is recorded, and a lost or late answer becomes an unknown outcome for reconciliation.
import { and, asc, eq, sql } from 'drizzle-orm';
import { CustodyError } from '@/lib/custody';
import {
  type OperationItemRow,
  type OperationRequestRow,
  operationApprovals,
  operationEvents,
  operationItems,
  operationRequests,
} from '@/lib/db/schema';
import { destinationRefusal } from '../destinations';
import { hashPayload } from '../hash';
import { lookUpTransactions } from '../lookup';
import { operationType } from '../operations/registry';
import {
  type LocalExecuteContext,
  type LocalOutcome,
  LocalRefusal,
  type SubmitOutcome,
  SubmitRefusal,
} from '../operations/types';
import type { RequestStatus } from '../states';
import {
  type EngineActor,
  type EngineContext,
  type Executor,
  log,
  PAYLOAD_CHANGED,
  SYSTEM_ACTOR,
} from './context';

/** A request claimed for submission, with the items to send. */
interface Claimed {
  row: OperationRequestRow;
  items: OperationItemRow[];
}

export function createSubmission(ctx: EngineContext) {
  const {
    db,
    now,
    startFollowing,
    audit,
    event,
    notify,
    transition,
    transitionOf,
    moved,
    findRequest,
    notFrozen,
    clientFor,
    itemsOf,
    configuration,
    getPolicy,
    capabilities,
    alerts,
  } = ctx;

  /**
   * Claims an APPROVED request for submission (one conditional update) and sends it; returns the new status.
   * The claim, its `submitting` event and the read of the stored items are one transaction.
   */
  async function submitApproved(
    id: string,
    actor: EngineActor = SYSTEM_ACTOR,
    twoFactorCode?: string,
  ): Promise<string | undefined> {
    const typeKey = (await findRequest(id))?.type ?? '';
    const claimed = await db.transaction((tx) => claim(tx, id, typeKey, actor));
    if (!claimed) return (await findRequest(id))?.status;
    return runSubmission(claimed.row, actor, twoFactorCode, claimed);
  }

  /**
   * The claim inside the caller's transaction `tx`: APPROVED to SUBMITTING (one conditional update), its
   * `submitting` event (after `before`, when given), and the items to send. `approved` is the request as the caller read it when it became
   * APPROVED: nothing but a claim changes an approved request, so then only what the claim changes is read back.
   */
  async function claim(
    tx: Executor,
    id: string,
    typeKey: string,
    actor: EngineActor,
    approved?: OperationRequestRow,
    before?: typeof operationEvents.$inferInsert,
  ): Promise<Claimed | undefined> {
    // The freeze holds what moves money or signs; a configuration change (lifting the freeze among them) is not.
    const local = operationType(typeKey)?.scope === 'console';
    const set = {
      submitAttempts: sql`${operationRequests.submitAttempts} + 1` as never,
      lastAttemptAt: now(),
      lastError: null,
    };
    let row: OperationRequestRow | undefined;
    if (approved) {
      const [changed] = await transitionOf(
        id,
        'APPROVED',
        'SUBMITTING',
        set,
        local ? undefined : notFrozen,
        tx,
      ).returning({
        status: operationRequests.status,
        submitAttempts: operationRequests.submitAttempts,
        lastAttemptAt: operationRequests.lastAttemptAt,
        lastError: operationRequests.lastError,
        updatedAt: operationRequests.updatedAt,
      });
      row = changed && { ...approved, ...changed };
    } else {
      row = await transition(id, 'APPROVED', 'SUBMITTING', set, local ? undefined : notFrozen, tx);
    }
    // `before` (the final approval's event) is written whether or not the request was claimed; with the claim's
    // own event after it, in one insert.
    const events = [
      ...(before ? [before] : []),
      ...(row
        ? [
            {
              requestId: row.id,
              kind: 'submitting',
              actorEmail: submittingActor(actor),
              detail: { attempt: row.submitAttempts },
              at: now(),
            },
          ]
        : []),
    ];
    if (events.length > 0) await tx.insert(operationEvents).values(events);
    if (!row) return undefined;
    return { row, items: await itemsOf(row.id, tx) };
  }

  const submittingActor = (actor: EngineActor) => (actor.email === SYSTEM_ACTOR.email ? null : actor.email);

  async function submitAllApproved(): Promise<number> {
    const rows = await db
      .select({ id: operationRequests.id })
      .from(operationRequests)
      .where(eq(operationRequests.status, 'APPROVED'))
      .orderBy(asc(operationRequests.createdAt))
      .limit(200);
    let n = 0;
    for (const { id } of rows) if ((await submitApproved(id)) !== 'APPROVED') n++;
    return n;
  }

  /** `claimed`: the claim already wrote the `submitting` event and read the items. */
  async function runSubmission(
    row: OperationRequestRow,
    actor: EngineActor,
    twoFactorCode?: string,
    claimed?: Claimed,
  ): Promise<string> {
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
    if (refused) return refuseBeforeSending(row, actor, `${refused} Nothing was sent.`);
    if (operation.local) return runLocal(row, operation.local.execute, actor);
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
          await updateItems(row.id, items);
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
    await recordSubmitted(row, outcome, actor);
    if (outcome.change) await recordChange(row, outcome.change);
    return outcome.final ?? 'SUBMITTED';
  }

  /**
   * The address book's rules refused the request before anything was sent: SUBMIT_FAILED with the sentence, and a
   * person may send it again once the book allows it.
   */
  async function refuseBeforeSending(row: OperationRequestRow, actor: EngineActor, message: string) {
    await transition(row.id, 'SUBMITTING', 'SUBMIT_FAILED', { lastError: message });
    await event(row.id, 'submit_failed', null, { message });
    await audit(actor, `${row.type}.submit`, 'refused', row.id, { message });
    await notify(row.requesterId, row.id, `Your request was not sent: ${message}`);
    return 'SUBMIT_FAILED';
  }

  /** A change of the service's settings: its own audit entry, and an alert like every configuration change. */
  async function recordChange(row: OperationRequestRow, change: NonNullable<SubmitOutcome['change']>) {
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

  /**
   * A configuration change: the console carries it out itself, once (the claim above is one conditional
   * update), and the request is final at once. A secret it produces stays sealed with the result.
   */
  async function runLocal(
    row: OperationRequestRow,
    execute: (context: LocalExecuteContext) => Promise<LocalOutcome>,
    actor: EngineActor,
  ): Promise<string> {
    let outcome: LocalOutcome;
    try {
      outcome = await execute({
        db,
        requestId: row.id,
        requester: { id: row.requesterId, email: row.requesterEmail },
        now: now(),
        services: configuration,
        getPolicy,
        submitHeld: () => submitAllApproved(),
        approverIds: async () =>
          (
            await db
              .select({ id: operationApprovals.approverId })
              .from(operationApprovals)
              .where(
                and(eq(operationApprovals.requestId, row.id), eq(operationApprovals.decision, 'approve')),
              )
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
      await alerts.requestFailed(
        row,
        `Your request could not be carried out: ${message}`,
        row.submitAttempts,
      );
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
    await finish(row, 'SUCCESS');
    return 'SUCCESS';
  }

  async function updateItems(requestId: string, items: SubmitOutcome['items'], executor: Executor = db) {
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

  async function recordSubmitted(
    row: OperationRequestRow,
    outcome: SubmitOutcome,
    actor: EngineActor,
    from: RequestStatus = 'SUBMITTING',
  ) {
    // What the service answered, the status change and its event: one transaction.
    const submitted = await db.transaction(async (tx) => {
      await updateItems(row.id, outcome.items, tx);
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
      await finish(row, outcome.final);
      return;
    }
    await notify(row.requesterId, row.id, `Your request was submitted: ${row.summary}`);
    // The follow-up (background rounds and webhooks) finds the rest of a batch by reference and settles it.
  }

  async function finish(row: OperationRequestRow, outcome: 'SUCCESS' | 'FAILED') {
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

  return { submitApproved, claim, submitAllApproved, runSubmission, recordSubmitted, finish };
}

export type Submission = ReturnType<typeof createSubmission>;
