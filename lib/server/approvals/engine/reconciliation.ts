import 'server-only';
// Following submitted requests and reconciling unknown outcomes: lookups by reference, the follow-up rounds
// and their lease, verified webhook events, expiry and the background round.
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { backoffDelay } from '@/lib/backoff';
import type { CustodyClient } from '@/lib/custody';
import {
  type OperationItemRow,
  type OperationRequestRow,
  operationItems,
  operationRequests,
  webhookEvents,
} from '@/lib/db/schema';
import { type FoundTransaction, type LookupResult, lookUpTransactions } from '../lookup';
import { operationType } from '../operations/registry';
import type { SubmitOutcome } from '../operations/types';
import { isExpired } from '../policy';
import { sourcesOf } from '../states';
import { type EngineContext, log, SYSTEM_ACTOR } from './context';
import type { Submission } from './submission';

export function createReconciliation(ctx: EngineContext, submission: Submission) {
  const {
    db,
    now,
    unknownOutcomeWindowMs,
    capabilities,
    followUp,
    stuckSubmittingMs,
    startFollowing,
    audit,
    event,
    notify,
    transition,
    findRequest,
    clientFor,
    isFrozen,
    notFrozen,
    itemsOf,
    windowEndOf,
    notifyApprovers,
    alerts,
  } = ctx;
  const { submitApproved, submitAllApproved, recordSubmitted, finish, runSubmission } = submission;

  async function lookUp(row: OperationRequestRow, item: OperationItemRow, client: CustodyClient) {
    const missing = await capabilities.missing(row.walletId);
    return lookUpTransactions(
      client,
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
  }

  /** Writes what the service says of one item's transaction; true when something changed. */
  async function applyTransaction(
    requestId: string,
    item: OperationItemRow,
    tx: Pick<FoundTransaction, 'id' | 'status' | 'hash' | 'confirmations'>,
  ): Promise<boolean> {
    const changes: Partial<typeof operationItems.$inferInsert> = {};
    if (tx.hash && tx.hash !== item.hash) changes.hash = tx.hash;
    if (tx.confirmations !== null && tx.confirmations !== item.confirmations)
      changes.confirmations = tx.confirmations;
    if (tx.status !== item.status) changes.status = tx.status;
    if (!item.transactionId) changes.transactionId = tx.id;
    if (Object.keys(changes).length === 0) return false;
    const updated = await db
      .update(operationItems)
      .set({ ...changes, updatedAt: now() })
      .where(eq(operationItems.id, item.id))
      .returning({ id: operationItems.id });
    if (updated.length === 0) return false;
    if (changes.hash) await event(requestId, 'hash', null, { index: item.index, hash: tx.hash });
    if (changes.confirmations !== undefined && tx.confirmations)
      await event(requestId, 'confirmations', null, { index: item.index, confirmations: tx.confirmations });
    if (changes.status && tx.status !== 'PENDING')
      await event(requestId, tx.status === 'SUCCESS' ? 'item_succeeded' : 'item_failed', null, {
        index: item.index,
        hash: tx.hash,
      });
    return true;
  }

  /** SUBMITTED ends when every item settled upstream. */
  async function finishIfSettled(row: OperationRequestRow) {
    const after = await itemsOf(row.id);
    if (after.every((i) => i.status === 'SUCCESS' || i.status === 'FAILED')) {
      await finish(row, after.every((i) => i.status === 'SUCCESS') ? 'SUCCESS' : 'FAILED');
    }
  }

  /**
   * Two upstream transactions carry one request's reference: the request leaves every other state for
   * DUPLICATE, is shown, notified and audited. Never one Success for two payments.
   */
  async function markDuplicate(row: OperationRequestRow, reference: string, txs: FoundTransaction[]) {
    const duplicates = [
      {
        reference,
        transactions: txs.map((t) => ({
          id: t.id,
          status: t.status,
          hash: t.hash,
          createdAt: t.createdAt,
        })),
      },
    ];
    const moved = await transition(row.id, sourcesOf('DUPLICATE'), 'DUPLICATE', {
      duplicates,
      nextFollowUpAt: null,
      followUpParkedAt: null,
    });
    if (!moved) return;
    await event(row.id, 'duplicate_detected', null, { reference, transactions: txs.map((t) => t.id) });
    await audit(SYSTEM_ACTOR, `${row.type}.duplicate`, 'detected', row.id, {
      reference,
      transactions: txs.map((t) => t.id),
    });
    await notifyApprovers(
      row,
      `Duplicate: ${txs.length} upstream transactions carry reference ${reference} of one request (${row.summary}). Check both and recover the extra payment.`,
    );
    await alerts.requestDuplicate(row, reference, txs.length);
  }

  /** Groups what lookups found by reference; more than one transaction for a reference is a duplicate. */
  function duplicateOf(found: FoundTransaction[]): boolean {
    return new Set(found.map((t) => t.id)).size > 1;
  }

  /** SUBMITTED: reads each unsettled item's transaction; finishes when all settled. True when anything moved. */
  async function followSubmitted(row: OperationRequestRow, client: CustodyClient): Promise<boolean> {
    let changed = false;
    for (const item of await itemsOf(row.id)) {
      if (item.status === 'SUCCESS' || item.status === 'FAILED') continue;
      const result = await lookUp(row, item, client);
      if (duplicateOf(result.transactions)) {
        await markDuplicate(row, item.reference, result.transactions);
        return true;
      }
      const tx = result.transactions[0];
      if (tx && (await applyTransaction(row.id, item, tx))) changed = true;
    }
    await finishIfSettled(row);
    return changed;
  }

  /**
   * Looks every item of a request up: what shows it executed is collected for linking; two transactions
   * with one reference put the request in DUPLICATE at once.
   */
  async function lookUpItems(row: OperationRequestRow, items: OperationItemRow[], client: CustodyClient) {
    const type = operationType(row.type);
    const found: SubmitOutcome['items'] = [];
    const checked: LookupResult[] = [];
    for (const item of items) {
      const result = await lookUp(row, item, client);
      if (duplicateOf(result.transactions)) {
        await markDuplicate(row, item.reference, result.transactions);
        return { duplicate: true as const, found, checked };
      }
      checked.push(result);
      const tx = result.transactions.find((t) => type?.executed(t) ?? true);
      if (tx)
        found.push({
          index: item.index,
          transactionId: tx.id,
          hash: tx.hash,
          status: tx.status,
          confirmations: tx.confirmations,
        });
    }
    return { duplicate: false as const, found, checked };
  }

  /**
   * OUTCOME_UNKNOWN: looks every reference up. What exists is linked (SUBMITTED, then followed). "Not
   * executed" is concluded only when lookups that would show the transaction answered AND the window since
   * the attempt has passed; until then nobody is offered a resubmission.
   */
  async function reconcileUnknown(row: OperationRequestRow, client: CustodyClient): Promise<boolean> {
    const inDoubt = operationType(row.type)?.inDoubt?.(row.result) ?? null;
    const all = await itemsOf(row.id);
    // A kind sent in several calls: only the call whose answer was lost is in doubt; the ones before it
    // were accepted and the ones after it never sent.
    const items = inDoubt ? all.filter((i) => inDoubt.includes(i.index)) : all;
    const looked = await lookUpItems(row, items, client);
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
      if (claimed) await runSubmission(claimed, SYSTEM_ACTOR);
      return true;
    }
    if (found.length > 0) {
      await event(row.id, 'reconciled', null, { found: found.length, of: items.length });
      // Kinds whose answer is final (sign-only withdrawal) settle on what was found.
      const final = operationType(row.type)?.finalWhenFound(found) ?? null;
      await recordSubmitted(
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
  function nextRound(row: OperationRequestRow, changed: boolean) {
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
  async function claimRound(id: string, force: boolean) {
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

  const rounds = new Map<string, Promise<string | undefined>>();

  /**
   * One follow-up round of a SUBMITTED or OUTCOME_UNKNOWN request. At most one lookup per request is in
   * flight: shared within this process, and claimed through the database across instances.
   */
  function followUpRound(id: string, options: { force?: boolean } = {}): Promise<string | undefined> {
    const running = rounds.get(id);
    if (running) return running;
    const round = runRound(id, options.force === true).finally(() => rounds.delete(id));
    rounds.set(id, round);
    return round;
  }

  async function runRound(id: string, force: boolean): Promise<string | undefined> {
    const row = await claimRound(id, force);
    if (!row) return (await findRequest(id))?.status;
    let changed = false;
    try {
      const target = await clientFor(row.walletId);
      if (target) {
        changed =
          row.status === 'SUBMITTED'
            ? await followSubmitted(row, target.client)
            : await reconcileUnknown(row, target.client);
      }
    } catch (error) {
      // The service did not answer the lookup: nothing is concluded from it; the next round tries again.
      log.warn({ err: error, requestId: id }, 'follow-up lookup failed');
    }
    const current = await findRequest(id);
    if (!current || (current.status !== 'SUBMITTED' && current.status !== 'OUTCOME_UNKNOWN')) {
      await db
        .update(operationRequests)
        .set({ followUpLeaseUntil: null })
        .where(eq(operationRequests.id, id));
      return current?.status;
    }
    const schedule = nextRound(current, changed || current.status !== row.status);
    await db
      .update(operationRequests)
      .set({ ...schedule, followUpLeaseUntil: null })
      .where(and(eq(operationRequests.id, id), eq(operationRequests.status, current.status)));
    // A request settled as "not found" stops polling by design; only a follow-up that gave up is news.
    if (schedule.followUpParkedAt && !current.followUpParkedAt && !current.confirmedAbsentAt)
      await event(id, 'follow_up_parked', null, { rounds: schedule.followUpAttempts });
    return current.status;
  }

  /** Brings one request up to date without calling the service: expiry, and submission after a thaw. */
  async function sync(id: string): Promise<void> {
    const row = await findRequest(id);
    if (!row) return;
    try {
      if (row.status === 'PENDING_APPROVAL' && isExpired(row.expiresAt, now())) await expireDue();
      else if (row.status === 'APPROVED') await submitApproved(id);
    } catch (error) {
      log.warn({ err: error, requestId: id }, 'could not bring the request up to date');
    }
  }

  async function expireDue(): Promise<number> {
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

  /**
   * A verified webhook's transaction (reference, id, status; the payload was stored by the receiver): links
   * it to the request that sent the reference, settles items from it, and catches a second transaction with
   * one reference. This alone follows a request on a service without the lookup extensions.
   */
  async function onTransactionEvent(webhook: {
    /** The stored webhook (webhook_events.id): its payload carries the hash and confirmations. */
    id?: string;
    walletId: string;
    transactionId: string;
    reference?: string;
    status?: string;
    type?: string;
    hash?: string | null;
  }) {
    if (webhook.type === 'DEPOSIT') return;
    const stored =
      webhook.id && /^[0-9a-f-]{36}$/i.test(webhook.id)
        ? (
            await db
              .select({ payload: webhookEvents.payload })
              .from(webhookEvents)
              .where(eq(webhookEvents.id, webhook.id))
              .limit(1)
          )[0]?.payload
        : undefined;
    const payload = (stored ?? {}) as { hash?: unknown; confirmations?: unknown };
    const matched = await db
      .select()
      .from(operationItems)
      .where(
        and(
          eq(operationItems.walletId, webhook.walletId),
          or(
            eq(operationItems.transactionId, webhook.transactionId),
            webhook.reference ? eq(operationItems.reference, webhook.reference) : sql`false`,
          ),
        ),
      );
    const tx: FoundTransaction = {
      id: webhook.transactionId,
      reference: webhook.reference ?? null,
      status: webhook.status ?? 'PENDING',
      type: webhook.type ?? null,
      hash: webhook.hash ?? (typeof payload.hash === 'string' ? payload.hash : null),
      confirmations: typeof payload.confirmations === 'number' ? payload.confirmations : null,
      createdAt: null,
      amount: null,
      symbol: null,
      recipientAddress: null,
    };
    for (const item of matched) await applyWebhook(item, tx);
  }

  async function applyWebhook(item: OperationItemRow, tx: FoundTransaction) {
    const row = await findRequest(item.requestId);
    if (!row) return;
    if (item.transactionId && item.transactionId !== tx.id && tx.reference === item.reference) {
      const known: FoundTransaction = {
        id: item.transactionId,
        reference: item.reference,
        status: item.status ?? 'PENDING',
        type: null,
        hash: item.hash,
        confirmations: item.confirmations,
        createdAt: null,
        amount: null,
        symbol: null,
        recipientAddress: null,
      };
      await markDuplicate(row, item.reference, [known, tx]);
      return;
    }
    if (row.status === 'OUTCOME_UNKNOWN') {
      if (!(operationType(row.type)?.executed(tx) ?? true)) return;
      if (operationType(row.type)?.inDoubt) {
        // A kind sent in several calls goes on from its next round, which links this and sends the rest.
        await db
          .update(operationRequests)
          .set({ nextFollowUpAt: now(), followUpParkedAt: null })
          .where(and(eq(operationRequests.id, row.id), eq(operationRequests.status, 'OUTCOME_UNKNOWN')));
        return;
      }
      await event(row.id, 'reconciled', null, { found: 1, via: 'webhook' });
      await recordSubmitted(
        row,
        { items: [{ index: item.index, transactionId: tx.id, hash: tx.hash, status: tx.status }] },
        SYSTEM_ACTOR,
        'OUTCOME_UNKNOWN',
      );
    }
    const current = await findRequest(row.id);
    if (current?.status !== 'SUBMITTED') return;
    const [fresh] = await db.select().from(operationItems).where(eq(operationItems.id, item.id));
    if (fresh && (await applyTransaction(row.id, fresh, tx))) {
      await db
        .update(operationRequests)
        .set({ followUpAttempts: 0, followUpParkedAt: null, nextFollowUpAt: now() })
        .where(and(eq(operationRequests.id, row.id), eq(operationRequests.status, 'SUBMITTED')));
    }
    await finishIfSettled(current);
  }

  /** One round of background work: expiry, thaw submissions, stuck submissions, follow-ups that are due. */
  async function tick(): Promise<void> {
    await expireDue();
    if (!(await isFrozen())) await submitAllApproved();
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
    for (const row of due) await followUpRound(row.id);
  }

  return { lookUpItems, followUpRound, sync, expireDue, onTransactionEvent, tick };
}

export type Reconciliation = ReturnType<typeof createReconciliation>;
