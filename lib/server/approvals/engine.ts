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
import type { ResolutionVerdict } from '@/lib/approvals/types';
import { type CustodyClient, CustodyError, createCustodyClient, type TransportOptions } from '@/lib/custody';
import {
  approvalPolicies,
  type ConsoleDb,
  consoleSettings,
  notifications,
  type OperationItemRow,
  type OperationRequestRow,
  operationApprovals,
  operationEvents,
  operationItems,
  operationRequests,
  users,
  webhookEvents,
} from '@/lib/db/schema';
import { appendAudit } from '../audit';
import { logger } from '../logger';
import { type Action, can } from '../permissions';
import { fetchBalances } from './balances';
import { hashPayload, referenceFor } from './hash';
import {
  type FoundTransaction,
  type LookupCapability,
  type LookupResult,
  looksLikeMissingEndpoint,
  lookUpTransactions,
} from './lookup';
import { defaultPolicy, expiryFor, isExpired, type PolicyValues, requiredApprovals } from './policy';
import { OPERATION_TYPES, operationType } from './registry';
import { assertTransition, type RequestStatus, sourcesOf } from './states';
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
  /**
   * After a lost or late answer, how long since the attempt before "the service shows no transaction with
   * the reference" may mean "not executed": longer than any plausible late execution (UNKNOWN_OUTCOME_WINDOW_MS).
   */
  unknownOutcomeWindowMs?: number;
  /** Which lookup extensions a wallet's service lacks, and how to recognise a missing endpoint. */
  capabilities?: EngineCapabilities;
  /** Follow-up of submitted and unknown requests: backoff from `baseMs` to `maxMs`, parked after `maxRounds`. */
  followUp?: Partial<FollowUpSettings>;
  /** A request left SUBMITTING this long (the process died mid-call) is treated as an unknown outcome. */
  stuckSubmittingMs?: number;
}

export interface EngineCapabilities {
  missing(walletId: string): Promise<Set<LookupCapability>>;
  markMissing(walletId: string, name: LookupCapability): Promise<void>;
  isMissingEndpoint(error: unknown): boolean;
}

export interface FollowUpSettings {
  baseMs: number;
  maxMs: number;
  /** Quiet rounds (nothing changed) before the request waits for a webhook or a person. */
  maxRounds: number;
  /** How long a claimed round may run before another instance may take the request. */
  leaseMs: number;
}

/** Without a capability store every extension is tried, and a missing one is skipped from then on. */
function inMemoryCapabilities(): EngineCapabilities {
  const missing = new Map<string, Set<LookupCapability>>();
  return {
    missing: async (walletId) => new Set(missing.get(walletId) ?? []),
    markMissing: async (walletId, name) => {
      const set = missing.get(walletId) ?? new Set();
      set.add(name);
      missing.set(walletId, set);
    },
    isMissingEndpoint: looksLikeMissingEndpoint,
  };
}

export type EngineResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: string; status?: number; fieldErrors?: Record<string, string> };

const FREEZE_KEY = 'freeze';
const PAYLOAD_CHANGED =
  'The request changed after it was approved (payload hash mismatch). Nothing was sent; create a new request.';
const log = logger.child({ component: 'approvals' });

/** "14:05 UTC": server messages name the time zone they speak in. */
function utcTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function fail(error: string, status = 409): { ok: false; error: string; status: number } {
  return { ok: false, error, status };
}

export type { ResolutionVerdict };

export const RESOLUTION_WORDS: Record<ResolutionVerdict, string> = {
  paid: 'paid',
  not_paid: 'not paid',
  failed: 'failed',
};

/** A manual resolution waiting for (or, once confirmed, carrying) its second person. */
export interface ResolutionProposal {
  verdict: ResolutionVerdict;
  transactionIds?: string[];
  note: string;
  byId: string;
  byEmail: string;
  at: string;
  /** The request's status when it was recorded: a change since voids it. */
  status: string;
  confirmedById?: string;
  confirmedByEmail?: string;
  confirmedAt?: string;
}

export type ApprovalEngine = ReturnType<typeof createApprovalEngine>;

export function createApprovalEngine(deps: EngineDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const unknownOutcomeWindowMs = deps.unknownOutcomeWindowMs ?? 600_000;
  const capabilities = deps.capabilities ?? inMemoryCapabilities();
  const followUp: FollowUpSettings = {
    baseMs: 2_000,
    maxMs: 300_000,
    maxRounds: 19,
    leaseMs: 60_000,
    ...deps.followUp,
  };
  /** Columns that (re)start the follow-up of a request entering SUBMITTED or OUTCOME_UNKNOWN. */
  const startFollowing = () => ({
    followUpAttempts: 0,
    nextFollowUpAt: new Date(now().getTime() + followUp.baseMs),
    followUpParkedAt: null,
  });
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

  /**
   * The upstream reference of each item: the requester's own where given (the customer reconciles by it),
   * else derived from the request id. Whatever is stored here is what is sent and what is looked up.
   */
  function referencesFor(type: OperationType, requestId: string, payload: unknown): string[] {
    const own = type.clientReferences?.(payload) ?? [];
    return Array.from(
      { length: type.itemCount(payload) },
      (_, i) => own[i]?.trim() || referenceFor(requestId, i),
    );
  }

  /** Field errors for references another request of the wallet (or another item of this one) already uses. */
  async function referenceClashes(
    type: OperationType,
    walletId: string,
    references: string[],
  ): Promise<Record<string, string> | null> {
    const errors: Record<string, string> = {};
    const field = (i: number) => type.referenceField?.(i) ?? `items.${i}.reference`;
    references.forEach((r, i) => {
      if (references.indexOf(r) !== i) errors[field(i)] = `Reference ${r} is used twice in this request.`;
    });
    const taken = await db
      .select({ reference: operationItems.reference })
      .from(operationItems)
      .where(and(eq(operationItems.walletId, walletId), inArray(operationItems.reference, references)));
    const used = new Set(taken.map((t) => t.reference));
    references.forEach((r, i) => {
      if (used.has(r)) errors[field(i)] = `Reference ${r} is already used by another request of this wallet.`;
    });
    return Object.keys(errors).length > 0 ? errors : null;
  }

  function clashResult(fieldErrors: Record<string, string>) {
    return {
      ok: false as const,
      error: Object.values(fieldErrors)[0] ?? 'A reference is already in use.',
      status: 422,
      fieldErrors,
    };
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
    const references = referencesFor(type, requestId, payload);
    return type.buildReview(payload, {
      db,
      client: target.client,
      walletId,
      requestId,
      references,
      balances: (addressId) => fetchBalances(target.connection, walletId, addressId).catch(() => []),
    });
  }

  /**
   * Reviews built for a requester's preview, with the request id they were built for: creating the same
   * payload right after reuses both, so approvers see exactly what the requester saw, and the service is
   * not asked again.
   */
  const previews = new Map<string, { id: string; built: BuiltReview; at: number }>();
  const PREVIEW_TTL_MS = 10 * 60_000;
  const previewKey = (actor: EngineActor, type: OperationType, walletId: string, payload: unknown) =>
    `${actor.id}|${type.key}|${walletId}|${hashPayload(payload)}`;

  function takePreview(key: string) {
    const kept = previews.get(key);
    previews.delete(key);
    return kept && now().getTime() - kept.at < PREVIEW_TTL_MS ? kept : undefined;
  }

  function keepPreview(key: string, id: string, built: BuiltReview) {
    const at = now().getTime();
    for (const [k, v] of previews) if (at - v.at >= PREVIEW_TTL_MS || previews.size > 500) previews.delete(k);
    previews.set(key, { id, built, at });
  }

  /** The review a requester sees before creating the request (references are provisional). */
  async function preview(actor: EngineActor, typeKey: string, walletId: string, payload: unknown) {
    const type = operationType(typeKey);
    if (!type) return fail('Unknown operation type.', 422);
    if (!(await mayAct(actor, type.permissions.request)))
      return fail('You do not have permission to do this.', 403);
    const parsed = type.payloadSchema.safeParse(payload);
    if (!parsed.success) return fail('The request is not valid.', 422);
    const previewId = randomUUID();
    const clashes = await referenceClashes(type, walletId, referencesFor(type, previewId, parsed.data));
    if (clashes) return clashResult(clashes);
    const built = await review(type, walletId, previewId, parsed.data);
    keepPreview(previewKey(actor, type, walletId, parsed.data), previewId, built);
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
    const previewed = takePreview(previewKey(actor, type, walletId, parsed.data));
    const id = previewed?.id ?? randomUUID();
    const references = referencesFor(type, id, parsed.data);
    const clashes = await referenceClashes(type, walletId, references);
    if (clashes) return clashResult(clashes);
    const built = previewed?.built ?? (await review(type, walletId, id, parsed.data));
    const policy = await getPolicy(type.key);
    const createdAt = now();
    const needed = requiredApprovals(policy, built.amountUsd);
    try {
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
        await tx.insert(operationItems).values(
          references.map((reference, index) => ({
            requestId: id,
            walletId,
            index,
            reference,
            transactionId: type.transactionIdsOf?.(parsed.data)[index] ?? null,
          })),
        );
        await tx.insert(operationEvents).values({
          requestId: id,
          kind: 'requested',
          actorEmail: actor.email,
          detail: { requiredApprovals: needed, amountUsd: built.amountUsd },
          at: createdAt,
        });
      });
    } catch (error) {
      // Two requests racing for one reference: the unique index lets one through.
      const again = await referenceClashes(type, walletId, references);
      if (again) return clashResult(again);
      throw error;
    }
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

  /**
   * An approver sends again: after an upstream refusal (SUBMIT_FAILED), or after "not executed" was
   * concluded (by lookups past the window, or by two people). The same references go again, the service is
   * looked up once more just before sending, and for an unknown outcome the approver confirms in words
   * what was checked (`acknowledged`).
   */
  async function resubmit(
    actor: EngineActor,
    id: string,
    twoFactorCode?: string,
    options: { acknowledged?: boolean } = {},
  ) {
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
    if (row.status === 'OUTCOME_UNKNOWN' && !row.confirmedAbsentAt)
      return fail(
        `The outcome is not known yet: the console can conclude "not executed" after ${utcTime(windowEndOf(row))}. Nothing was sent.`,
      );
    if (row.status === 'OUTCOME_UNKNOWN' && options.acknowledged !== true)
      return fail('Confirm what was checked before resubmitting. Nothing was sent.', 422);
    if (row.status !== 'SUBMIT_FAILED' && row.status !== 'OUTCOME_UNKNOWN')
      return fail('This request cannot be resubmitted now.');
    // One more look just before sending: a late execution found now is linked instead of paid again.
    const target = await clientFor(row.walletId);
    if (!target) return fail('This wallet is not connected to the console. Nothing was sent.');
    let looked: Awaited<ReturnType<typeof lookUpItems>>;
    try {
      looked = await lookUpItems(row, await itemsOf(id), target.client);
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
    if (found.length > 0) {
      await event(id, 'reconciled', actor.email, { found: found.length, via: 'check before resubmission' });
      await audit(actor, `${type.key}.resubmit`, 'linked', id, {
        transactions: found.map((f) => f.transactionId),
      });
      await recordSubmitted(row, { items: found }, SYSTEM_ACTOR, row.status as RequestStatus);
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
              row,
              checked.every((c) => c.conclusive),
            ),
          }
        : {}),
    });
    const status = await runSubmission(claimed, actor, twoFactorCode);
    return { ok: true as const, data: { status: status ?? 'SUBMITTING' } };
  }

  /** The words an approver confirms before resubmitting a request whose first outcome was unknown. */
  function resubmitAcknowledgement(row: OperationRequestRow, lookedUp: boolean): string {
    const proposal = row.resolutionProposal as { verdict?: string; byEmail?: string } | null;
    const how = lookedUp
      ? `the custody service showed no transaction with this request's references, checked ${Math.round(unknownOutcomeWindowMs / 60_000)} minutes or more after the last attempt and again just now`
      : `two people confirmed by hand that it was not executed${proposal?.byEmail ? ` (recorded by ${proposal.byEmail})` : ''}`;
    return `I resubmit with the same references because ${how}.`;
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
    // What was stored at creation is what is sent, every time: reconciliation looks these up.
    const references = (await itemsOf(row.id)).map((i) => i.reference);
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
      await transition(row.id, 'SUBMITTING', 'OUTCOME_UNKNOWN', { lastError: message, ...startFollowing() });
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
    const moved = await transition(row.id, from, 'SUBMITTED', {
      ...(outcome.result ? { result: outcome.result } : {}),
      ...startFollowing(),
    });
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
    // The follow-up (background rounds and webhooks) finds the rest of a batch by reference and settles it.
  }

  async function finish(row: OperationRequestRow, outcome: 'SUCCESS' | 'FAILED') {
    const moved = await transition(row.id, 'SUBMITTED', outcome, {
      nextFollowUpAt: null,
      followUpParkedAt: null,
    });
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

  /** When the window after the last attempt ends: before it, "the service shows nothing" proves nothing. */
  function windowEndOf(row: OperationRequestRow): Date {
    const since = row.lastAttemptAt ?? row.updatedAt;
    return new Date(since.getTime() + unknownOutcomeWindowMs);
  }

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

  /** The people who act on a request: its requester, and everyone who may approve its type. */
  async function notifyApprovers(row: OperationRequestRow, message: string) {
    const type = operationType(row.type);
    const people = await db
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(isNull(users.disabledAt));
    const ids = new Set<string>([row.requesterId]);
    for (const p of people) if (type && can(p.role, type.permissions.approve)) ids.add(p.id);
    for (const id of ids) await notify(id, row.id, message);
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
      const tx = result.transactions.find((t) => type?.executed?.(t) ?? true);
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
    const items = await itemsOf(row.id);
    const looked = await lookUpItems(row, items, client);
    if (looked.duplicate) return true;
    const { found } = looked;
    const conclusive = looked.checked.every((c) => c.conclusive);
    if (found.length > 0) {
      await event(row.id, 'reconciled', null, { found: found.length, of: items.length });
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
    let next = at + Math.min(followUp.baseMs * 2 ** attempts, followUp.maxMs);
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

  /** A person asks the console to look now (also un-parks a request). */
  async function checkNow(actor: EngineActor, id: string) {
    const row = await findRequest(id);
    if (!row) return fail('No such request.', 404);
    if (!(await mayAct(actor, 'read'))) return fail('You do not have permission to do this.', 403);
    if (row.status !== 'SUBMITTED' && row.status !== 'OUTCOME_UNKNOWN')
      return fail('Only a submitted request or one with an unknown outcome is looked up.');
    const status = await followUpRound(id, { force: true });
    return { ok: true as const, data: { status: status ?? row.status } };
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
      if (!(operationType(row.type)?.executed?.(tx) ?? true)) return;
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
    const proposal = proposalOf(row);
    const windowPassed = now().getTime() >= windowEndOf(row).getTime();
    return {
      canApprove: mayApprove && !own && open && !decidedBy.includes(actor.id),
      canCancel: own && open,
      canResubmit:
        mayApprove &&
        !own &&
        (row.status === 'SUBMIT_FAILED' ||
          (row.status === 'OUTCOME_UNKNOWN' && row.confirmedAbsentAt !== null)),
      canCheckNow: row.status === 'SUBMITTED' || row.status === 'OUTCOME_UNKNOWN',
      // A manual resolution is for what the service cannot settle: an unknown outcome, or a submitted
      // request whose follow-up gave up.
      canProposeResolution:
        mayApprove &&
        proposal === null &&
        ((row.status === 'OUTCOME_UNKNOWN' && row.confirmedAbsentAt === null) ||
          (row.status === 'SUBMITTED' && row.followUpParkedAt !== null)),
      resolutionVerdicts: resolutionVerdictsFor(row, windowPassed),
      // Two people other than the requester settle what happened to the requester's money.
      canConfirmResolution: mayApprove && !own && proposal !== null && proposal.byId !== actor.id,
      canDiscardResolution: mayApprove && proposal !== null,
    };
  }

  // --- manual resolution ------------------------------------------------------------------------------------

  function proposalOf(row: OperationRequestRow): ResolutionProposal | null {
    const p = row.resolutionProposal as ResolutionProposal | null;
    return p && typeof p.verdict === 'string' ? p : null;
  }

  /** "not paid" only after the window: before it a late execution is still plausible. */
  function resolutionVerdictsFor(row: OperationRequestRow, windowPassed: boolean): ResolutionVerdict[] {
    if (row.status === 'OUTCOME_UNKNOWN') return windowPassed ? ['paid', 'not_paid'] : ['paid'];
    if (row.status === 'SUBMITTED') return ['paid', 'failed'];
    return [];
  }

  /**
   * One person records what the service's own dashboard shows ("paid, transaction X", "not paid", "failed");
   * a second person confirms it before anything changes. Both steps are audited.
   */
  async function proposeResolution(
    actor: EngineActor,
    id: string,
    input: { verdict: ResolutionVerdict; transactionIds?: string[]; note: string },
  ) {
    const row = await findRequest(id);
    if (!row) return fail('No such request.', 404);
    const type = operationType(row.type);
    if (!type) return fail('Unknown operation type.', 422);
    if (!(await mayAct(actor, type.permissions.approve))) {
      await audit(actor, `${type.key}.resolve`, 'denied', id);
      return fail('You do not have permission to do this.', 403);
    }
    const can = await abilities(actor, row, []);
    if (!can.canProposeResolution) return fail('This request cannot be resolved by hand now.');
    if (!can.resolutionVerdicts.includes(input.verdict))
      return fail(
        input.verdict === 'not_paid'
          ? `"Not paid" can be recorded after ${utcTime(windowEndOf(row))}: until then a late execution is still possible.`
          : 'That resolution does not apply to this request.',
        422,
      );
    const items = await itemsOf(id);
    const transactionIds = (input.transactionIds ?? []).map((t) => t.trim());
    if (
      input.verdict === 'paid' &&
      (transactionIds.length !== items.length || transactionIds.some((t) => !t))
    )
      return {
        ok: false as const,
        error: 'Give the transaction id of each payment, as the service shows it.',
        status: 422,
        fieldErrors: { transactionIds: 'Give the transaction id of each payment.' },
      };
    const proposal: ResolutionProposal = {
      verdict: input.verdict,
      ...(input.verdict === 'paid' ? { transactionIds } : {}),
      note: input.note,
      byId: actor.id,
      byEmail: actor.email,
      at: now().toISOString(),
      status: row.status,
    };
    const [stored] = await db
      .update(operationRequests)
      .set({ resolutionProposal: { ...proposal }, updatedAt: now() })
      .where(
        and(
          eq(operationRequests.id, id),
          eq(operationRequests.status, row.status),
          isNull(operationRequests.resolutionProposal),
        ),
      )
      .returning({ id: operationRequests.id });
    if (!stored) return fail('Someone else recorded a resolution first; reload the request.');
    await event(id, 'resolution_proposed', actor.email, {
      verdict: input.verdict,
      transactionIds: proposal.transactionIds ?? [],
      note: input.note,
    });
    await audit(actor, `${type.key}.resolve.propose`, 'success', id, {
      verdict: input.verdict,
      transactionIds: proposal.transactionIds ?? [],
      note: input.note,
    });
    await notifyApprovers(
      row,
      `${actor.email} recorded "${RESOLUTION_WORDS[input.verdict]}" for a request; a second person must confirm it (${row.summary}).`,
    );
    return { ok: true as const, data: { status: row.status } };
  }

  async function confirmResolution(actor: EngineActor, id: string) {
    const row = await findRequest(id);
    if (!row) return fail('No such request.', 404);
    const type = operationType(row.type);
    if (!type) return fail('Unknown operation type.', 422);
    if (!(await mayAct(actor, type.permissions.approve))) {
      await audit(actor, `${type.key}.resolve`, 'denied', id);
      return fail('You do not have permission to do this.', 403);
    }
    const proposal = proposalOf(row);
    if (!proposal) return fail('There is no resolution to confirm.');
    if (proposal.byId === actor.id)
      return fail('A second person must confirm the resolution you recorded.', 403);
    if (row.requesterId === actor.id)
      return fail('The requester cannot confirm the resolution of their own request.', 403);
    if (proposal.status !== row.status) return fail('The request changed since the resolution was recorded.');
    const record = {
      ...proposal,
      confirmedById: actor.id,
      confirmedByEmail: actor.email,
      confirmedAt: now().toISOString(),
    };
    if (proposal.verdict === 'not_paid') {
      const [moved] = await db
        .update(operationRequests)
        .set({
          confirmedAbsentAt: now(),
          resolutionProposal: record,
          nextFollowUpAt: null,
          followUpParkedAt: now(),
          updatedAt: now(),
        })
        .where(and(eq(operationRequests.id, id), eq(operationRequests.status, 'OUTCOME_UNKNOWN')))
        .returning({ id: operationRequests.id });
      if (!moved) return fail('The request changed since the resolution was recorded.');
      await event(id, 'confirmed_absent', actor.email, { manual: true, recordedBy: proposal.byEmail });
    } else {
      const items = await itemsOf(id);
      const status = proposal.verdict === 'paid' ? 'SUCCESS' : 'FAILED';
      const moved = await transition(id, proposal.status as RequestStatus, status, {
        resolutionProposal: record,
        nextFollowUpAt: null,
        followUpParkedAt: null,
      });
      if (!moved) return fail('The request changed since the resolution was recorded.');
      for (const item of items) {
        await db
          .update(operationItems)
          .set({
            status,
            ...(proposal.transactionIds?.[item.index]
              ? { transactionId: proposal.transactionIds[item.index] }
              : {}),
            updatedAt: now(),
          })
          .where(eq(operationItems.id, item.id));
      }
      await event(id, status === 'SUCCESS' ? 'succeeded' : 'failed', actor.email, { manual: true });
    }
    await event(id, 'resolution_confirmed', actor.email, {
      verdict: proposal.verdict,
      recordedBy: proposal.byEmail,
    });
    await audit(actor, `${type.key}.resolve.confirm`, 'success', id, {
      verdict: proposal.verdict,
      recordedBy: proposal.byEmail,
      transactionIds: proposal.transactionIds ?? [],
    });
    await notifyApprovers(
      row,
      `"${RESOLUTION_WORDS[proposal.verdict]}" was confirmed by ${actor.email} (recorded by ${proposal.byEmail}): ${row.summary}`,
    );
    return { ok: true as const, data: { status: (await findRequest(id))?.status ?? row.status } };
  }

  async function discardResolution(actor: EngineActor, id: string) {
    const row = await findRequest(id);
    if (!row) return fail('No such request.', 404);
    const type = operationType(row.type);
    if (!type || !(await mayAct(actor, type.permissions.approve)))
      return fail('You do not have permission to do this.', 403);
    const proposal = proposalOf(row);
    if (
      !proposal ||
      !(row.status === 'OUTCOME_UNKNOWN' || row.status === 'SUBMITTED') ||
      row.confirmedAbsentAt
    )
      return fail('There is no open resolution to discard.');
    await db
      .update(operationRequests)
      .set({ resolutionProposal: null, updatedAt: now() })
      .where(and(eq(operationRequests.id, id), eq(operationRequests.status, row.status)));
    await event(id, 'resolution_discarded', actor.email, { verdict: proposal.verdict });
    await audit(actor, `${type.key}.resolve.discard`, 'success', id, { verdict: proposal.verdict });
    return { ok: true as const, data: { status: row.status } };
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
          // Qualified by hand: inside a subquery drizzle names columns without their table, and a bare "id"
          // would be the approval's own id.
          sql<number>`(select count(*) from "operation_approvals" a where a."request_id" = "operation_requests"."id" and a."decision" = 'approve')`.mapWith(
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
    followUpRound,
    checkNow,
    proposeResolution,
    confirmResolution,
    discardResolution,
    windowEndOf,
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
