import 'server-only';
// The approval engine: requests, approvals, exactly-once submission, reconciliation by reference and the
// follower of submitted transactions. Free of Next.js: it takes its database and custody connections as
// dependencies, so the integration tests and the benchmark drive it against the sandbox directly.
import { randomUUID } from 'node:crypto';
import {
  and,
  asc,
  count,
  desc,
  eq,
  inArray,
  isNull,
  lte,
  ne,
  notExists,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { CustodyError, createCustodyClient, type TransportOptions } from '@/lib/custody';
import {
  approvalPolicies,
  type ConsoleDb,
  consoleSettings,
  notifications,
  type OperationRequestRow,
  operationApprovals,
  operationEvents,
  operationItems,
  operationRequests,
  users,
} from '@/lib/db/schema';
import { appendAudit } from '../audit';
import { logger } from '../logger';
import { type Action, can } from '../permissions';
import { fetchBalances } from './balances';
import { hashPayload, referenceFor } from './hash';
import { defaultPolicy, expiryFor, isExpired, type PolicyValues, requiredApprovals } from './policy';
import { OPERATION_TYPES, operationType } from './registry';
import { assertTransition, type RequestStatus } from './states';
import type { BuiltReview, OperationType, SubmitOutcome } from './types';

export interface EngineActor {
  id: string;
  email: string;
  role: string;
  requestId?: string | null;
}

/** Background work (submission after a thaw, reconciliation, following) is done in the console's name. */
export const SYSTEM_ACTOR: EngineActor = { id: 'system', email: 'system', role: 'system', requestId: null };

export interface EngineDeps {
  db: ConsoleDb;
  /** Where a wallet's custody calls go (base URL, API key, fetch); null when the wallet is not connected. */
  connectionFor(walletId: string): Promise<TransportOptions | null>;
  now?: () => Date;
  /** After a lost answer, how long before "no record carries the reference" is trusted as absent. */
  absentGraceMs?: number;
  /** A request left SUBMITTING this long (the process died mid-call) is treated as an unknown outcome. */
  stuckSubmittingMs?: number;
}

export type EngineResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: string; status?: number; fieldErrors?: Record<string, string> };

const FREEZE_KEY = 'freeze';
const PAYLOAD_CHANGED =
  'The request changed after it was approved (payload hash mismatch). Nothing was sent; create a new request.';
const log = logger.child({ component: 'approvals' });

function fail(error: string, status = 409): { ok: false; error: string; status: number } {
  return { ok: false, error, status };
}

export type ApprovalEngine = ReturnType<typeof createApprovalEngine>;

export function createApprovalEngine(deps: EngineDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const absentGraceMs = deps.absentGraceMs ?? 15_000;
  const stuckSubmittingMs = deps.stuckSubmittingMs ?? 120_000;

  // --- helpers ----------------------------------------------------------------------------------------------

  async function audit(
    actor: EngineActor,
    action: string,
    outcome: string,
    target: string | null,
    input: Record<string, unknown> = {},
  ) {
    await appendAudit(db, {
      actorId: actor.id === SYSTEM_ACTOR.id ? null : actor.id,
      actorEmail: actor.email,
      role: actor.role,
      action,
      target,
      input,
      outcome,
      requestId: actor.requestId ?? null,
    });
  }

  async function event(
    requestId: string,
    kind: string,
    actorEmail: string | null,
    detail: Record<string, unknown> = {},
  ) {
    await db.insert(operationEvents).values({ requestId, kind, actorEmail, detail, at: now() });
  }

  async function notify(userId: string, requestId: string, message: string) {
    if (!userId || userId === SYSTEM_ACTOR.id) return;
    await db.insert(notifications).values({ userId, requestId, message, createdAt: now() });
  }

  /** A conditional status change: it happens only if the request is still in `from`. */
  async function transition(
    id: string,
    from: RequestStatus | RequestStatus[],
    to: RequestStatus,
    set: Partial<typeof operationRequests.$inferInsert> = {},
    extra?: SQL,
  ): Promise<OperationRequestRow | undefined> {
    const sources = Array.isArray(from) ? from : [from];
    for (const s of sources) assertTransition(s, to);
    const [row] = await db
      .update(operationRequests)
      .set({ ...set, status: to, updatedAt: now() })
      .where(and(eq(operationRequests.id, id), inArray(operationRequests.status, sources), extra))
      .returning();
    return row;
  }

  async function findRequest(id: string) {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    const [row] = await db.select().from(operationRequests).where(eq(operationRequests.id, id)).limit(1);
    return row;
  }

  /** The person's role now, from the database: a role removed yesterday cannot approve today. */
  async function currentRole(actor: EngineActor): Promise<string | null> {
    const [user] = await db
      .select({ role: users.role, disabledAt: users.disabledAt })
      .from(users)
      .where(sql`${users.id}::text = ${actor.id}`)
      .limit(1);
    if (!user || user.disabledAt) return null;
    return user.role;
  }

  async function mayAct(actor: EngineActor, action: Action): Promise<boolean> {
    const role = await currentRole(actor);
    return can(role as never, action);
  }

  const notFrozen = notExists(
    db
      .select({ key: consoleSettings.key })
      .from(consoleSettings)
      .where(and(eq(consoleSettings.key, FREEZE_KEY), eq(consoleSettings.enabled, true))),
  );

  async function clientFor(walletId: string) {
    const connection = await deps.connectionFor(walletId);
    if (!connection) return null;
    return { connection, client: createCustodyClient(connection) };
  }

  function referencesOf(row: Pick<OperationRequestRow, 'id'>, itemCount: number) {
    return Array.from({ length: itemCount }, (_, i) => referenceFor(row.id, i));
  }

  // --- policy and freeze ------------------------------------------------------------------------------------

  async function getPolicy(type: string): Promise<PolicyValues> {
    const [row] = await db
      .select()
      .from(approvalPolicies)
      .where(eq(approvalPolicies.operationType, type))
      .limit(1);
    if (!row) return defaultPolicy(type);
    return {
      approvals: row.approvals,
      thresholdUsd: row.thresholdUsd === null ? null : Number(row.thresholdUsd),
      expirySeconds: row.expirySeconds,
    };
  }

  async function updatePolicy(actor: EngineActor, type: string, values: PolicyValues) {
    if (!operationType(type)) return fail('Unknown operation type.', 422);
    const set = {
      approvals: values.approvals,
      thresholdUsd: values.thresholdUsd === null ? null : String(values.thresholdUsd),
      expirySeconds: values.expirySeconds,
      updatedBy: actor.email,
      updatedAt: now(),
    };
    const before = await getPolicy(type);
    await db
      .insert(approvalPolicies)
      .values({ operationType: type, ...set })
      .onConflictDoUpdate({ target: approvalPolicies.operationType, set });
    await audit(actor, 'policy.edit', 'success', type, { before, after: values });
    return { ok: true as const, data: values };
  }

  async function isFrozen(): Promise<boolean> {
    const [row] = await db.select().from(consoleSettings).where(eq(consoleSettings.key, FREEZE_KEY)).limit(1);
    return row?.enabled === true;
  }

  async function setFreeze(actor: EngineActor, enabled: boolean) {
    await db
      .insert(consoleSettings)
      .values({ key: FREEZE_KEY, enabled, updatedBy: actor.email, updatedAt: now() })
      .onConflictDoUpdate({
        target: consoleSettings.key,
        set: { enabled, updatedBy: actor.email, updatedAt: now() },
      });
    await audit(actor, 'freeze.toggle', 'success', 'console', { enabled });
    // Thawing sends what was approved meanwhile.
    const submitted = enabled ? 0 : await submitAllApproved();
    return { ok: true as const, data: { enabled, submitted } };
  }

  // --- requesting -------------------------------------------------------------------------------------------

  async function review(
    type: OperationType,
    walletId: string,
    requestId: string,
    payload: unknown,
  ): Promise<BuiltReview> {
    const target = await clientFor(walletId);
    if (!target)
      throw new CustodyError({
        kind: 'http',
        status: 404,
        message: 'This wallet is not connected to the console',
        method: 'GET',
        path: '',
      });
    const references = referencesOf({ id: requestId }, type.itemCount(payload));
    return type.buildReview(payload, {
      db,
      client: target.client,
      walletId,
      requestId,
      references,
      balances: (addressId) => fetchBalances(target.connection, walletId, addressId).catch(() => []),
    });
  }

  /** The review a requester sees before creating the request (references are provisional). */
  async function preview(actor: EngineActor, typeKey: string, walletId: string, payload: unknown) {
    const type = operationType(typeKey);
    if (!type) return fail('Unknown operation type.', 422);
    if (!(await mayAct(actor, type.permissions.request)))
      return fail('You do not have permission to do this.', 403);
    const parsed = type.payloadSchema.safeParse(payload);
    if (!parsed.success) return fail('The request is not valid.', 422);
    const built = await review(type, walletId, randomUUID(), parsed.data);
    const policy = await getPolicy(type.key);
    return {
      ok: true as const,
      data: { ...built, requiredApprovals: requiredApprovals(policy, built.amountUsd) },
    };
  }

  async function create(actor: EngineActor, typeKey: string, walletId: string, payload: unknown) {
    const type = operationType(typeKey);
    if (!type) return fail('Unknown operation type.', 422);
    if (!(await mayAct(actor, type.permissions.request)))
      return fail('You do not have permission to do this.', 403);
    const parsed = type.payloadSchema.safeParse(payload);
    if (!parsed.success) return fail('The request is not valid.', 422);
    const id = randomUUID();
    const built = await review(type, walletId, id, parsed.data);
    const policy = await getPolicy(type.key);
    const createdAt = now();
    const needed = requiredApprovals(policy, built.amountUsd);
    const references = referencesOf({ id }, type.itemCount(parsed.data));
    await db.transaction(async (tx) => {
      await tx.insert(operationRequests).values({
        id,
        type: type.key,
        status: 'PENDING_APPROVAL',
        walletId,
        addressId: type.addressIdOf(parsed.data),
        payload: parsed.data as Record<string, unknown>,
        payloadHash: hashPayload(parsed.data),
        review: built.review,
        summary: built.summary,
        amountUsd: built.amountUsd === null ? null : String(built.amountUsd),
        requiredApprovals: needed,
        requesterId: actor.id,
        requesterEmail: actor.email,
        expiresAt: expiryFor(policy, createdAt),
        createdAt,
        updatedAt: createdAt,
      });
      await tx
        .insert(operationItems)
        .values(references.map((reference, index) => ({ requestId: id, walletId, index, reference })));
      await tx.insert(operationEvents).values({
        requestId: id,
        kind: 'requested',
        actorEmail: actor.email,
        detail: { requiredApprovals: needed, amountUsd: built.amountUsd },
        at: createdAt,
      });
    });
    await audit(actor, type.permissions.request, 'success', id, {
      walletId,
      summary: built.summary,
      amountUsd: built.amountUsd,
      payloadHash: hashPayload(parsed.data),
    });
    return { ok: true as const, data: { id, requiredApprovals: needed, summary: built.summary } };
  }

  // --- approving --------------------------------------------------------------------------------------------

  type Decision =
    | { kind: 'missing' }
    | { kind: 'own' }
    | { kind: 'not-open'; status: string }
    | { kind: 'expired' }
    | { kind: 'twice' }
    | { kind: 'recorded'; approvals: number; approved: boolean; rejected: boolean };

  async function decide(
    actor: EngineActor,
    id: string,
    verdict: 'approve' | 'reject',
    reason?: string,
    twoFactorCode?: string,
  ) {
    const current = await findRequest(id);
    if (!current) return fail('No such request.', 404);
    const type = operationType(current.type);
    if (!type) return fail('Unknown operation type.', 422);
    // Rejecting is an approver's decision too: the same permission.
    if (!(await mayAct(actor, type.permissions.approve))) {
      await audit(actor, `${type.key}.${verdict}`, 'denied', id);
      return fail('You do not have permission to do this.', 403);
    }
    const at = now();
    const decision: Decision = await db.transaction(async (tx) => {
      // Serialises decisions on one request: the count below then sees every earlier approval.
      const [row] = await tx
        .select()
        .from(operationRequests)
        .where(eq(operationRequests.id, id))
        .for('update');
      if (!row) return { kind: 'missing' };
      if (row.requesterId === actor.id) return { kind: 'own' };
      if (row.status !== 'PENDING_APPROVAL') return { kind: 'not-open', status: row.status };
      if (isExpired(row.expiresAt, at)) {
        await tx
          .update(operationRequests)
          .set({ status: 'EXPIRED', updatedAt: at })
          .where(and(eq(operationRequests.id, id), eq(operationRequests.status, 'PENDING_APPROVAL')));
        await tx.insert(operationEvents).values({ requestId: id, kind: 'expired', actorEmail: null, at });
        return { kind: 'expired' };
      }
      const inserted = await tx
        .insert(operationApprovals)
        .values({
          requestId: id,
          approverId: actor.id,
          approverEmail: actor.email,
          role: actor.role,
          decision: verdict,
          reason: reason ?? null,
          createdAt: at,
        })
        .onConflictDoNothing()
        .returning({ id: operationApprovals.id });
      if (inserted.length === 0) return { kind: 'twice' };
      await tx.insert(operationEvents).values({
        requestId: id,
        kind: verdict === 'approve' ? 'approved' : 'rejected',
        actorEmail: actor.email,
        detail: reason ? { reason } : {},
        at,
      });
      if (verdict === 'reject') {
        assertTransition('PENDING_APPROVAL', 'REJECTED');
        await tx
          .update(operationRequests)
          .set({ status: 'REJECTED', rejectReason: reason ?? null, updatedAt: at })
          .where(and(eq(operationRequests.id, id), eq(operationRequests.status, 'PENDING_APPROVAL')));
        return { kind: 'recorded', approvals: 0, approved: false, rejected: true };
      }
      const [tally] = await tx
        .select({ n: count() })
        .from(operationApprovals)
        .where(and(eq(operationApprovals.requestId, id), eq(operationApprovals.decision, 'approve')));
      const approvals = Number(tally?.n ?? 0);
      let approved = false;
      if (approvals >= row.requiredApprovals) {
        assertTransition('PENDING_APPROVAL', 'APPROVED');
        const moved = await tx
          .update(operationRequests)
          .set({ status: 'APPROVED', updatedAt: at })
          .where(and(eq(operationRequests.id, id), eq(operationRequests.status, 'PENDING_APPROVAL')))
          .returning({ id: operationRequests.id });
        approved = moved.length === 1;
      }
      return { kind: 'recorded', approvals, approved, rejected: false };
    });
    const auditAction = `${type.key}.${verdict}`;
    switch (decision.kind) {
      case 'missing':
        return fail('No such request.', 404);
      case 'own':
        await audit(actor, auditAction, 'denied', id, { reason: 'own request' });
        return fail('You cannot approve or reject your own request.', 403);
      case 'not-open':
        return fail(
          `This request is no longer waiting for approval (${decision.status.replace(/_/g, ' ').toLowerCase()}).`,
        );
      case 'expired':
        await audit(actor, auditAction, 'denied', id, { reason: 'expired' });
        await notify(
          current.requesterId,
          id,
          `Your request expired before it was approved: ${current.summary}`,
        );
        return fail('This request has expired and can no longer be approved.');
      case 'twice':
        return fail('You have already decided on this request; one person counts once.');
      case 'recorded':
        break;
    }
    await audit(actor, auditAction, 'success', id, reason ? { reason } : { approvals: decision.approvals });
    if (decision.rejected) {
      await notify(
        current.requesterId,
        id,
        `Your request was rejected by ${actor.email}: ${reason ?? ''}`.trim(),
      );
      return { ok: true as const, data: { status: 'REJECTED' as string } };
    }
    if (!decision.approved) return { ok: true as const, data: { status: 'PENDING_APPROVAL' as string } };
    await event(id, 'fully_approved', null, { approvals: decision.approvals });
    const after = await submitApproved(id, SYSTEM_ACTOR, twoFactorCode);
    return { ok: true as const, data: { status: after ?? 'APPROVED' } };
  }

  const approve = (actor: EngineActor, id: string, twoFactorCode?: string) =>
    decide(actor, id, 'approve', undefined, twoFactorCode);
  const reject = (actor: EngineActor, id: string, reason: string) => decide(actor, id, 'reject', reason);

  async function cancel(actor: EngineActor, id: string) {
    const row = await findRequest(id);
    if (!row) return fail('No such request.', 404);
    if (row.requesterId !== actor.id) return fail('Only the requester can cancel a request.', 403);
    const moved = await transition(id, 'PENDING_APPROVAL', 'CANCELLED');
    if (!moved) return fail('Only a request waiting for approval can be cancelled.');
    await event(id, 'cancelled', actor.email);
    await audit(actor, `${row.type}.cancel`, 'success', id);
    return { ok: true as const, data: { status: 'CANCELLED' } };
  }

  // --- submitting, exactly once -----------------------------------------------------------------------------

  /** Claims an APPROVED request for submission (one conditional update) and sends it; returns the new status. */
  async function submitApproved(
    id: string,
    actor: EngineActor = SYSTEM_ACTOR,
    twoFactorCode?: string,
  ): Promise<string | undefined> {
    const claimed = await transition(
      id,
      'APPROVED',
      'SUBMITTING',
      {
        submitAttempts: sql`${operationRequests.submitAttempts} + 1` as never,
        lastAttemptAt: now(),
        lastError: null,
      },
      notFrozen,
    );
    if (!claimed) return (await findRequest(id))?.status;
    return runSubmission(claimed, actor, twoFactorCode);
  }

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

  /** An approver sends again after an upstream 4xx, or after the reconciler found nothing upstream. */
  async function resubmit(actor: EngineActor, id: string, twoFactorCode?: string) {
    const row = await findRequest(id);
    if (!row) return fail('No such request.', 404);
    const type = operationType(row.type);
    if (!type) return fail('Unknown operation type.', 422);
    if (!(await mayAct(actor, type.permissions.approve))) {
      await audit(actor, `${type.key}.resubmit`, 'denied', id);
      return fail('You do not have permission to do this.', 403);
    }
    if (row.requesterId === actor.id) return fail('Another approver must resubmit your request.', 403);
    if (await isFrozen())
      return fail('The console is frozen: nothing is submitted until an admin lifts the freeze.');
    const claimed = await transition(
      id,
      ['SUBMIT_FAILED', 'OUTCOME_UNKNOWN'],
      'SUBMITTING',
      {
        submitAttempts: sql`${operationRequests.submitAttempts} + 1` as never,
        lastAttemptAt: now(),
        lastError: null,
        confirmedAbsentAt: null,
      },
      and(
        notFrozen,
        or(
          eq(operationRequests.status, 'SUBMIT_FAILED'),
          sql`${operationRequests.confirmedAbsentAt} is not null`,
        ),
      ),
    );
    if (!claimed) return fail('This request cannot be resubmitted now.');
    await audit(actor, `${type.key}.resubmit`, 'success', id, { attempt: claimed.submitAttempts });
    const status = await runSubmission(claimed, actor, twoFactorCode);
    return { ok: true as const, data: { status: status ?? 'SUBMITTING' } };
  }

  async function runSubmission(
    row: OperationRequestRow,
    actor: EngineActor,
    twoFactorCode?: string,
  ): Promise<string> {
    const type = operationType(row.type);
    await event(row.id, 'submitting', actor.email === SYSTEM_ACTOR.email ? null : actor.email, {
      attempt: row.submitAttempts,
    });
    const parsed = type?.payloadSchema.safeParse(row.payload);
    if (!type || !parsed?.success || hashPayload(row.payload) !== row.payloadHash) {
      await transition(row.id, 'SUBMITTING', 'SUBMIT_FAILED', { lastError: PAYLOAD_CHANGED });
      await event(row.id, 'submit_refused', null, { reason: 'payload hash mismatch' });
      await audit(actor, `${row.type}.submit`, 'refused', row.id, { reason: 'payload hash mismatch' });
      await notify(row.requesterId, row.id, `Your request was not sent: ${PAYLOAD_CHANGED}`);
      return 'SUBMIT_FAILED';
    }
    const target = await clientFor(row.walletId);
    if (!target) {
      const message = 'The wallet is no longer connected to the console.';
      await transition(row.id, 'SUBMITTING', 'SUBMIT_FAILED', { lastError: message });
      await event(row.id, 'submit_failed', null, { message });
      await audit(actor, `${row.type}.submit`, 'failed', row.id, { message });
      return 'SUBMIT_FAILED';
    }
    const references = referencesOf(row, type.itemCount(parsed.data));
    let outcome: SubmitOutcome;
    try {
      outcome = await type.submit(parsed.data, {
        client: target.client,
        walletId: row.walletId,
        requestId: row.id,
        references,
        ...(twoFactorCode ? { twoFactorCode } : {}),
      });
    } catch (error) {
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
        return 'SUBMIT_FAILED';
      }
      // Timeout, network failure, 5xx or anything unexpected after the call began: the service may have
      // acted. Never resend blind; the reconciler looks the references up.
      const message = known ? error.message : 'The submission did not complete';
      if (!known) log.error({ err: error, requestId: row.id }, 'submission failed unexpectedly');
      await transition(row.id, 'SUBMITTING', 'OUTCOME_UNKNOWN', { lastError: message });
      await event(row.id, 'outcome_unknown', null, { message });
      await audit(actor, `${row.type}.submit`, 'unknown', row.id, { message });
      return 'OUTCOME_UNKNOWN';
    }
    await recordSubmitted(row, outcome, actor);
    return outcome.final ?? 'SUBMITTED';
  }

  async function updateItems(requestId: string, items: SubmitOutcome['items']) {
    for (const item of items) {
      await db
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
    await updateItems(row.id, outcome.items);
    const moved = await transition(
      row.id,
      from,
      'SUBMITTED',
      outcome.result ? { result: outcome.result } : {},
    );
    if (!moved) return;
    await event(row.id, 'submitted', null, {
      transactions: outcome.items
        .filter((i) => i.transactionId)
        .map((i) => ({ index: i.index, id: i.transactionId, hash: i.hash ?? null })),
    });
    await audit(actor, `${row.type}.submit`, 'success', row.id, {
      transactions: outcome.items.map((i) => i.transactionId).filter(Boolean),
    });
    if (outcome.final) {
      await finish(row, outcome.final);
      return;
    }
    await notify(row.requesterId, row.id, `Your request was submitted: ${row.summary}`);
    // The answer names one transaction; the rest of a batch is found by reference straight away.
    await refresh(row.id).catch((error) =>
      log.warn({ err: error, requestId: row.id }, 'follow-up read failed'),
    );
  }

  async function finish(row: OperationRequestRow, outcome: 'SUCCESS' | 'FAILED') {
    const moved = await transition(row.id, 'SUBMITTED', outcome);
    if (!moved) return;
    await event(row.id, outcome === 'SUCCESS' ? 'succeeded' : 'failed', null);
    await audit(SYSTEM_ACTOR, `${row.type}.outcome`, outcome === 'SUCCESS' ? 'success' : 'failed', row.id);
    await notify(
      row.requesterId,
      row.id,
      outcome === 'SUCCESS'
        ? `Your request succeeded: ${row.summary}`
        : `Your request failed upstream: ${row.summary}`,
    );
  }

  // --- following and reconciling ----------------------------------------------------------------------------

  async function itemsOf(requestId: string) {
    return db
      .select()
      .from(operationItems)
      .where(eq(operationItems.requestId, requestId))
      .orderBy(asc(operationItems.index));
  }

  /** Reads each item's transaction upstream; moves a SUBMITTED request to SUCCESS or FAILED when all settled. */
  async function refresh(id: string): Promise<string | undefined> {
    const row = await findRequest(id);
    if (!row || row.status !== 'SUBMITTED') return row?.status;
    const target = await clientFor(row.walletId);
    if (!target) return row.status;
    const items = await itemsOf(id);
    for (const item of items) {
      if (item.status === 'SUCCESS' || item.status === 'FAILED') continue;
      const tx = item.transactionId
        ? (await target.client.wallets.getTransaction({ walletId: row.walletId, id: item.transactionId }))
            .data
        : (
            await target.client.wallets.listTransactions({
              walletId: row.walletId,
              reference: item.reference,
              limit: 1,
            })
          ).data[0];
      if (!tx) continue;
      const changes: Record<string, unknown> = {};
      if (tx.hash && tx.hash !== item.hash) changes.hash = tx.hash;
      if ((tx.confirmations ?? null) !== item.confirmations) changes.confirmations = tx.confirmations ?? null;
      if (tx.status !== item.status) changes.status = tx.status;
      if (!item.transactionId) changes.transactionId = tx.id;
      if (Object.keys(changes).length === 0) continue;
      const updated = await db
        .update(operationItems)
        .set({ ...changes, updatedAt: now() })
        .where(eq(operationItems.id, item.id))
        .returning({ id: operationItems.id });
      if (updated.length === 0) continue;
      if (changes.hash) await event(id, 'hash', null, { index: item.index, hash: tx.hash });
      if (changes.confirmations !== undefined && tx.confirmations)
        await event(id, 'confirmations', null, { index: item.index, confirmations: tx.confirmations });
      if (changes.status && tx.status !== 'PENDING')
        await event(id, tx.status === 'SUCCESS' ? 'item_succeeded' : 'item_failed', null, {
          index: item.index,
          hash: tx.hash,
        });
    }
    const after = await itemsOf(id);
    if (after.every((i) => i.status === 'SUCCESS' || i.status === 'FAILED')) {
      await finish(row, after.every((i) => i.status === 'SUCCESS') ? 'SUCCESS' : 'FAILED');
    }
    return (await findRequest(id))?.status;
  }

  /** OUTCOME_UNKNOWN: looks every reference up; links what exists, or records that nothing does. */
  async function reconcile(id: string): Promise<string | undefined> {
    const row = await findRequest(id);
    if (!row || row.status !== 'OUTCOME_UNKNOWN') return row?.status;
    const target = await clientFor(row.walletId);
    if (!target) return row.status;
    const items = await itemsOf(id);
    const found: SubmitOutcome['items'] = [];
    for (const item of items) {
      const page = await target.client.wallets.listTransactions({
        walletId: row.walletId,
        reference: item.reference,
        limit: 1,
      });
      const tx = page.data[0];
      if (tx)
        found.push({
          index: item.index,
          transactionId: tx.id,
          hash: tx.hash,
          status: tx.status,
          confirmations: tx.confirmations,
        });
    }
    if (found.length > 0) {
      await event(id, 'reconciled', null, { found: found.length, of: items.length });
      const final =
        row.type === 'withdrawSign'
          ? found.some((f) => f.status === 'SUCCESS')
            ? 'SUCCESS'
            : 'FAILED'
          : undefined;
      await recordSubmitted(
        row,
        { items: found, ...(final ? { final } : {}) },
        SYSTEM_ACTOR,
        'OUTCOME_UNKNOWN',
      );
      return (await findRequest(id))?.status;
    }
    const since = row.lastAttemptAt ?? row.updatedAt;
    if (!row.confirmedAbsentAt && now().getTime() - since.getTime() >= absentGraceMs) {
      const [marked] = await db
        .update(operationRequests)
        .set({ confirmedAbsentAt: now(), updatedAt: now() })
        .where(
          and(
            eq(operationRequests.id, id),
            eq(operationRequests.status, 'OUTCOME_UNKNOWN'),
            isNull(operationRequests.confirmedAbsentAt),
          ),
        )
        .returning({ id: operationRequests.id });
      if (marked) {
        await event(id, 'confirmed_absent', null, { references: items.map((i) => i.reference) });
        await notify(
          row.requesterId,
          row.id,
          'Your request did not reach the custody service; an approver can resubmit it safely.',
        );
      }
    }
    return row.status;
  }

  /** Brings one request up to date (on view): expiry, reconciliation, following. */
  async function sync(id: string): Promise<void> {
    const row = await findRequest(id);
    if (!row) return;
    try {
      if (row.status === 'PENDING_APPROVAL' && isExpired(row.expiresAt, now())) await expireDue();
      else if (row.status === 'APPROVED') await submitApproved(id);
      else if (row.status === 'OUTCOME_UNKNOWN') await reconcile(id);
      else if (row.status === 'SUBMITTED') await refresh(id);
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
    }
    return rows.length;
  }

  /** A transaction event (webhook) for a wallet: refreshes the request that owns the transaction, if any. */
  async function onTransactionEvent(event: { walletId: string; transactionId: string; reference?: string }) {
    const [item] = await db
      .select({ requestId: operationItems.requestId })
      .from(operationItems)
      .where(
        or(
          eq(operationItems.transactionId, event.transactionId),
          event.reference ? eq(operationItems.reference, event.reference) : sql`false`,
        ),
      )
      .limit(1);
    if (item) await sync(item.requestId);
  }

  /** One round of background work: expiry, thaw submissions, stuck submissions, reconciliation, following. */
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
        })
      )
        await event(row.id, 'outcome_unknown', null, { message: 'The submission was interrupted' });
    }
    const open = await db
      .select({ id: operationRequests.id, status: operationRequests.status })
      .from(operationRequests)
      .where(inArray(operationRequests.status, ['OUTCOME_UNKNOWN', 'SUBMITTED']))
      .orderBy(asc(operationRequests.updatedAt))
      .limit(100);
    for (const row of open) await sync(row.id);
  }

  // --- reading ----------------------------------------------------------------------------------------------

  async function view(id: string) {
    const row = await findRequest(id);
    if (!row) return undefined;
    const [approvals, items, events] = await Promise.all([
      db
        .select()
        .from(operationApprovals)
        .where(eq(operationApprovals.requestId, id))
        .orderBy(asc(operationApprovals.createdAt)),
      itemsOf(id),
      db
        .select()
        .from(operationEvents)
        .where(eq(operationEvents.requestId, id))
        .orderBy(asc(operationEvents.id)),
    ]);
    return { request: row, approvals, items, events };
  }

  /** What this person may do with the request now (the server checks again when they do it). */
  async function abilities(actor: EngineActor, row: OperationRequestRow, decidedBy: string[]) {
    const type = operationType(row.type);
    const mayApprove = type ? await mayAct(actor, type.permissions.approve) : false;
    const own = row.requesterId === actor.id;
    const open = row.status === 'PENDING_APPROVAL' && !isExpired(row.expiresAt, now());
    return {
      canApprove: mayApprove && !own && open && !decidedBy.includes(actor.id),
      canCancel: own && open,
      canResubmit:
        mayApprove &&
        !own &&
        (row.status === 'SUBMIT_FAILED' ||
          (row.status === 'OUTCOME_UNKNOWN' && row.confirmedAbsentAt !== null)),
    };
  }

  type Scope = 'needs-me' | 'open' | 'mine' | 'all';

  async function list(actor: EngineActor, scope: Scope, limit = 100) {
    const approvable = Object.entries(await approvableTypes(actor))
      .filter(([, ok]) => ok)
      .map(([k]) => k);
    const conditions: SQL[] = [];
    if (scope === 'needs-me') {
      if (approvable.length === 0) return [];
      conditions.push(
        eq(operationRequests.status, 'PENDING_APPROVAL'),
        sql`${operationRequests.expiresAt} > ${now()}`,
        ne(operationRequests.requesterId, actor.id),
        inArray(operationRequests.type, approvable),
        notExists(
          db
            .select({ id: operationApprovals.id })
            .from(operationApprovals)
            .where(
              and(
                eq(operationApprovals.requestId, operationRequests.id),
                eq(operationApprovals.approverId, actor.id),
              ),
            ),
        ),
      );
    } else if (scope === 'open') {
      conditions.push(
        inArray(operationRequests.status, [
          'PENDING_APPROVAL',
          'APPROVED',
          'SUBMITTING',
          'SUBMITTED',
          'SUBMIT_FAILED',
          'OUTCOME_UNKNOWN',
        ]),
      );
    } else if (scope === 'mine') {
      conditions.push(eq(operationRequests.requesterId, actor.id));
    }
    const rows = await db
      .select({
        request: operationRequests,
        approvals:
          sql<number>`(select count(*) from ${operationApprovals} where ${operationApprovals.requestId} = ${operationRequests.id} and ${operationApprovals.decision} = 'approve')`.mapWith(
            Number,
          ),
      })
      .from(operationRequests)
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(desc(operationRequests.createdAt))
      .limit(limit);
    return rows;
  }

  async function approvableTypes(actor: EngineActor): Promise<Record<string, boolean>> {
    const role = await currentRole(actor);
    const out: Record<string, boolean> = {};
    for (const key of Object.keys(OPERATION_TYPES)) {
      const type = operationType(key);
      out[key] = type ? can(role as never, type.permissions.approve) : false;
    }
    return out;
  }

  async function countNeedingApproval(actor: EngineActor): Promise<number> {
    return (await list(actor, 'needs-me', 500)).length;
  }

  async function listNotifications(userId: string, limit = 20) {
    return db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(desc(notifications.createdAt))
      .limit(limit);
  }

  async function markNotificationsRead(userId: string) {
    await db
      .update(notifications)
      .set({ readAt: now() })
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  }

  async function typeOf(id: string): Promise<string | undefined> {
    return (await findRequest(id))?.type;
  }

  return {
    typeOf,
    preview,
    create,
    approve,
    reject,
    cancel,
    resubmit,
    submitApproved,
    submitAllApproved,
    reconcile,
    refresh,
    sync,
    expireDue,
    tick,
    onTransactionEvent,
    view,
    abilities,
    list,
    countNeedingApproval,
    listNotifications,
    markNotificationsRead,
    getPolicy,
    updatePolicy,
    isFrozen,
    setFreeze,
  };
}
