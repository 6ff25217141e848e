import 'server-only';
// What people do to requests: preview and create, approve and reject, cancel, resubmit, check now, the
// two-person manual resolution, the policy and the freeze.
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { ConfigurationResult } from '@/lib/approvals/configuration';
import { CONSOLE_SCOPE } from '@/lib/approvals/configuration';
import type { LimitCheck } from '@/lib/approvals/limits';
import { isTokenActorId } from '@/lib/approvals/service-tokens';
import type { ResolutionVerdict } from '@/lib/approvals/types';
import { CustodyError } from '@/lib/custody';
import {
  approvalPolicies,
  consoleSettings,
  type OperationRequestRow,
  operationApprovals,
  operationEvents,
  operationItems,
  operationRequests,
  users,
} from '@/lib/db/schema';
import { WALLET_NOT_CONNECTED } from '../../errors';
import { can as roleMay } from '../../permissions';
import { fetchBalances } from '../balances';
import { destinationRefusal } from '../destinations';
import { hashPayload } from '../hash';
import { independenceRefusal } from '../independence';
import {
  checkLimits,
  contributionsOf,
  isLimitedKind,
  limitsInForce,
  lockLimits,
  refusalMessage,
  takeLimitsLock,
} from '../limits';
import { operationType } from '../operations/registry';
import {
  type BuiltReview,
  LocalRefusal,
  type ParsedOperation,
  type RegisteredOperation,
} from '../operations/types';
import { expiryFor, highestApprovalsFor, isExpired, type PolicyValues, requiredApprovals } from '../policy';
import { assertTransition, type RequestStatus } from '../states';
import { usdNumber } from '../usd';
import {
  type DecisionProof,
  type EngineActor,
  type EngineContext,
  FREEZE_KEY,
  fail,
  PROOF_REQUIRED,
  RESOLUTION_WORDS,
  type ResolutionProposal,
  SYSTEM_ACTOR,
  utcTime,
} from './context';
import type { Queries } from './queries';
import type { Reconciliation } from './reconciliation';
import type { Submission } from './submission';

/** A spending limit refused the request: thrown inside the transaction so that nothing of it is kept. */
class LimitRefused extends Error {
  constructor(readonly check: LimitCheck) {
    super(check.refusedBy ? refusalMessage(check.refusedBy) : 'Refused by a spending limit.');
  }
}

/** A caller's own check refused the request inside its transaction (an API token's daily cap). */
class GuardRefused extends Error {}

/** The address book's rules refused the request at its final approval: nothing of the approval is kept. */
class DestinationRefused extends Error {}

export interface CreateOptions {
  /** The request's id, chosen by the caller (an idempotency key's row names it before the request exists). */
  id?: string;
  /** Approvals the request needs at least, whatever the policy says (an API token's minimum). */
  minApprovals?: number;
  /**
   * Runs inside the creating transaction, before the insert: a sentence refuses the request and nothing of it
   * is kept. The caller takes whatever lock its check needs with `tx`.
   */
  guard?: (
    tx: Parameters<Parameters<EngineContext['db']['transaction']>[0]>[0],
    request: { amountUsd: BuiltReview['amountUsd']; at: Date },
  ) => Promise<string | null>;
}

function candidateOf(type: string, walletId: string, requesterId: string, payload: unknown, review: unknown) {
  return { walletId, requesterId, contributions: contributionsOf(type, payload, review) };
}

function limitRefusal(check: LimitCheck) {
  return { ok: false as const, error: new LimitRefused(check).message, status: 422 };
}

export function createCommands(
  ctx: EngineContext,
  submission: Submission,
  reconciliation: Reconciliation,
  queries: Queries,
) {
  const {
    db,
    now,
    unknownOutcomeWindowMs,
    audit,
    event,
    notify,
    transition,
    findRequest,
    mayAct,
    notFrozen,
    clientFor,
    referencesFor,
    referenceClashes,
    clashResult,
    getPolicy,
    isFrozen,
    itemsOf,
    windowEndOf,
    notifyApprovers,
    configuration,
    alerts,
  } = ctx;
  const { claim, submitAllApproved, runSubmission, recordSubmitted } = submission;
  const { lookUpItems, followUpRound } = reconciliation;
  const { abilities, proposalOf } = queries;

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
    await alerts.configurationChanged({
      key: `policy:${type}:${set.updatedAt.toISOString()}`,
      summary: `Approval policy of ${operationType(type)?.label ?? type} edited`,
      by: actor.email,
      path: '/admin/policy',
    });
    return { ok: true as const, data: values };
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
    await alerts.configurationChanged({
      key: `freeze:${enabled}:${now().toISOString()}`,
      summary: enabled ? 'Emergency freeze set' : 'Emergency freeze lifted',
      by: actor.email,
      path: '/approvals',
    });
    // Thawing sends what was approved meanwhile.
    const submitted = enabled ? 0 : await submitAllApproved();
    return { ok: true as const, data: { enabled, submitted } };
  }

  async function review(
    operation: ParsedOperation,
    walletId: string,
    requestId: string,
    actor: EngineActor,
  ): Promise<BuiltReview> {
    if (operation.local)
      return operation.local.buildReview({
        db,
        requestId,
        requesterId: actor.id,
        getPolicy,
        labelOf: (type) => operationType(type)?.label ?? type,
        walletReview: (kind, scope, payload) => {
          const inner = operationType(kind)?.parse(payload);
          if (!inner || inner.local) throw new LocalRefusal('The request is not valid.');
          return review(inner, scope, requestId, actor);
        },
      });
    const target = await clientFor(walletId);
    if (!target)
      throw new CustodyError({
        kind: 'http',
        status: 404,
        message: WALLET_NOT_CONNECTED,
        method: 'GET',
        path: '',
      });
    const references = referencesFor(operation, requestId);
    return operation.buildReview({
      db,
      client: target.client,
      walletId,
      requestId,
      references,
      balances: (addressId) => fetchBalances(target.connection, walletId, addressId).catch(() => []),
      highestApprovals: () => highestApprovalsFor(db, operation.kind),
      now: now(),
    });
  }

  /**
   * Reviews built for a requester's preview, with the request id they were built for: creating the same
   * payload right after reuses both, so approvers see exactly what the requester saw, and the service is
   * not asked again.
   */
  const previews = new Map<string, { id: string; built: BuiltReview; at: number }>();

  const PREVIEW_TTL_MS = 10 * 60_000;

  const previewKey = (actor: EngineActor, type: RegisteredOperation, walletId: string, payload: unknown) =>
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
  async function preview(actor: EngineActor, typeKey: string, scope: string, payload: unknown) {
    const type = operationType(typeKey);
    if (!type) return fail('Unknown operation type.', 422);
    // A configuration change is filed under the console, whatever wallet the caller named.
    const walletId = type.scope === 'console' ? CONSOLE_SCOPE : scope;
    if (!(await mayAct(actor, type.permissions.request)))
      return fail('You do not have permission to do this.', 403);
    const operation = type.parse(payload);
    if (!operation) return fail('The request is not valid.', 422);
    const previewId = randomUUID();
    const clashes = await referenceClashes(type, walletId, referencesFor(operation, previewId));
    if (clashes) return clashResult(clashes);
    const built = await reviewOrRefusal(operation, walletId, previewId, actor);
    if ('error' in built) return built;
    const refused = await destinationsRefused(operation, walletId, built);
    if (refused) return refused;
    keepPreview(previewKey(actor, type, walletId, operation.payload), previewId, built);
    const policy = await getPolicy(type.key);
    // What the limits say now; creating checks again under the lock.
    const limits = isLimitedKind(type.key)
      ? await checkLimits(
          db,
          candidateOf(type.key, walletId, actor.id, operation.payload, built.review),
          now(),
          'create',
        )
      : null;
    if (limits?.refusedBy) return limitRefusal(limits);
    return {
      ok: true as const,
      data: {
        ...built,
        review: limits ? { ...built.review, limits } : built.review,
        amountUsd: usdNumber(built.amountUsd),
        requiredApprovals:
          Math.max(requiredApprovals(policy, built.amountUsd), built.minApprovals ?? 0) +
          (limits?.extraApprovals ?? 0),
      },
    };
  }

  /** A configuration kind refuses a review whose subject is gone (the user, the wallet): a sentence, not a throw. */
  async function reviewOrRefusal(
    operation: ParsedOperation,
    walletId: string,
    requestId: string,
    actor: EngineActor,
  ): Promise<BuiltReview | { ok: false; error: string; status: number }> {
    try {
      return await review(operation, walletId, requestId, actor);
    } catch (error) {
      if (error instanceof LocalRefusal) return fail(error.message, 422);
      throw error;
    }
  }

  /**
   * Where the request sends money, held to the address book's rules as it stands now: the recipients the payload
   * names, and those the review learnt from the service (a retried transaction's, the rules a switch puts in
   * force). The same check the final approval and the submission make again.
   */
  async function destinationsRefused(operation: ParsedOperation, walletId: string, built: BuiltReview) {
    const refusal = await destinationRefusal(
      db,
      operation.kind,
      walletId,
      operation.payload,
      built.review,
      now(),
    );
    return refusal ? fail(`${refusal} Nothing was requested.`, 422) : null;
  }

  /** The request a caller made before under the id it chose; another requester's id is refused. */
  async function madeBefore(actor: EngineActor, id: string) {
    const row = await findRequest(id);
    if (!row) return null;
    if (row.requesterId !== actor.id) return fail('That request id is taken.', 409);
    return {
      ok: true as const,
      data: { id, requiredApprovals: row.requiredApprovals, summary: row.summary, existing: true },
    };
  }

  /** Whether a request with this id exists (a caller that chose the id looks before making it again). */
  async function hasRequest(id: string): Promise<boolean> {
    return Boolean(await findRequest(id));
  }

  async function create(
    actor: EngineActor,
    typeKey: string,
    scope: string,
    payload: unknown,
    options: CreateOptions = {},
  ) {
    const type = operationType(typeKey);
    if (!type) return fail('Unknown operation type.', 422);
    const walletId = type.scope === 'console' ? CONSOLE_SCOPE : scope;
    if (!(await mayAct(actor, type.permissions.request)))
      return fail('You do not have permission to do this.', 403);
    const operation = type.parse(payload);
    if (!operation) return fail('The request is not valid.', 422);
    const previewed = takePreview(previewKey(actor, type, walletId, operation.payload));
    const id = options.id ?? previewed?.id ?? randomUUID();
    // A caller that chose the id (an idempotency key, a schedule's run) may call again: what it made answers.
    if (options.id) {
      const made = await madeBefore(actor, options.id);
      if (made) return made;
    }
    const references = referencesFor(operation, id);
    const clashes = await referenceClashes(type, walletId, references);
    if (clashes) return clashResult(clashes);
    const built = previewed?.built ?? (await reviewOrRefusal(operation, walletId, id, actor));
    if ('error' in built) return built;
    const refused = await destinationsRefused(operation, walletId, built);
    if (refused) return refused;
    const policy = await getPolicy(type.key);
    const createdAt = now();
    let needed = Math.max(
      requiredApprovals(policy, built.amountUsd),
      built.minApprovals ?? 0,
      options.minApprovals ?? 0,
    );
    const limited = isLimitedKind(type.key);
    try {
      await db.transaction(async (tx) => {
        let review = built.review as Record<string, unknown>;
        if (options.guard) {
          const refusal = await options.guard(tx, { amountUsd: built.amountUsd, at: createdAt });
          if (refusal) throw new GuardRefused(refusal);
        }
        // The check and the insert are one step under the limits lock: of two requests made at the same
        // moment, the second sees the first.
        if (limited && (await lockLimits(tx))) {
          const limits = await checkLimits(
            tx,
            candidateOf(type.key, walletId, actor.id, operation.payload, built.review),
            createdAt,
            'create',
          );
          if (limits.refusedBy) throw new LimitRefused(limits);
          needed += limits.extraApprovals;
          review = { ...review, limits };
        }
        await tx.insert(operationRequests).values({
          id,
          type: type.key,
          status: 'PENDING_APPROVAL',
          walletId,
          addressId: operation.addressId,
          payload: operation.payload,
          payloadHash: hashPayload(operation.payload),
          review,
          summary: built.summary,
          amountUsd: built.amountUsd,
          requiredApprovals: needed,
          requesterId: actor.id,
          requesterEmail: actor.email,
          expiresAt: expiryFor(policy, createdAt),
          createdAt,
          updatedAt: createdAt,
        });
        if (references.length > 0)
          await tx.insert(operationItems).values(
            references.map((reference, index) => ({
              requestId: id,
              walletId,
              index,
              reference,
              transactionId: operation.transactionIds[index] ?? null,
            })),
          );
        await tx.insert(operationEvents).values({
          requestId: id,
          kind: 'requested',
          actorEmail: actor.email,
          detail: { requiredApprovals: needed, amountUsd: usdNumber(built.amountUsd) },
          at: createdAt,
        });
      });
    } catch (error) {
      if (error instanceof GuardRefused) {
        await audit(actor, type.permissions.request, 'refused', walletId, {
          reason: error.message,
          amountUsd: usdNumber(built.amountUsd),
        });
        return fail(error.message, 422);
      }
      if (error instanceof LimitRefused) {
        await audit(actor, type.permissions.request, 'refused', walletId, {
          reason: 'spending limit',
          rule: error.check.refusedBy?.ruleId ?? null,
          amountUsd: usdNumber(built.amountUsd),
        });
        return limitRefusal(error.check);
      }
      // Two calls with one chosen id at once: the primary key let the other through.
      if (options.id) {
        const made = await madeBefore(actor, options.id);
        if (made) return made;
      }
      // Two requests racing for one reference: the unique index lets one through.
      const again = await referenceClashes(type, walletId, references);
      if (again) return clashResult(again);
      throw error;
    }
    await audit(actor, type.permissions.request, 'success', id, {
      walletId,
      summary: built.summary,
      amountUsd: usdNumber(built.amountUsd),
      payloadHash: hashPayload(operation.payload),
    });
    const created = await findRequest(id);
    if (created) await alerts.approvalNeeded(created);
    return {
      ok: true as const,
      data: { id, requiredApprovals: needed, summary: built.summary, existing: false },
    };
  }

  type Decision =
    | { kind: 'missing' }
    | { kind: 'unknown-type' }
    | { kind: 'denied' }
    | { kind: 'own' }
    | { kind: 'not-independent'; sentence: string }
    | { kind: 'not-open'; status: string }
    | { kind: 'expired' }
    | { kind: 'twice' }
    | { kind: 'recorded'; approvals: number; approved: boolean; rejected: boolean; raisedTo?: number };

  async function decide(
    actor: EngineActor,
    id: string,
    verdict: 'approve' | 'reject',
    reason?: string,
    twoFactorCode?: string,
    proof?: DecisionProof,
  ) {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return fail('No such request.', 404);
    // An API token's permission is its token's: checked before the decision, as for any other command. A
    // person's role is read inside the decision's transaction, with the row the decision locks.
    const token = isTokenActorId(actor.id);
    if (token) {
      const before = await findRequest(id);
      if (!before) return fail('No such request.', 404);
      const type = operationType(before.type);
      if (!type) return fail('Unknown operation type.', 422);
      if (!(await mayAct(actor, type.permissions.approve))) {
        await audit(actor, `${type.key}.${verdict}`, 'denied', id);
        return fail('You do not have permission to do this.', 403);
      }
    }
    const at = now();
    // The request as the decision read it, under its lock.
    let current: OperationRequestRow | undefined;
    let decision: Decision;
    /** Whatever refuses this decision before anything is written: permission, own request, independence, state. */
    async function gate(reader: typeof db, row: OperationRequestRow, dry: boolean): Promise<Decision | null> {
      const type = operationType(row.type);
      if (!type) return { kind: 'unknown-type' };
      // The person's role now, from the database (a role removed yesterday cannot approve today).
      const [me] = token
        ? [undefined]
        : await reader
            .select({ role: users.role, disabledAt: users.disabledAt })
            .from(users)
            .where(sql`${users.id}::text = ${actor.id}`)
            .limit(1);
      // Rejecting is an approver's decision too: the same permission.
      if (!token && !(me && !me.disabledAt && roleMay(me.role as never, type.permissions.approve)))
        return { kind: 'denied' };
      if (row.requesterId === actor.id) return { kind: 'own' };
      // Four eyes against an insider: an approval counts only from someone independent of the requester and
      // of every approver so far (nobody controls two of them), whatever the kind and whatever the page offered.
      const decided =
        verdict === 'approve' || dry
          ? await reader
              .select({ id: operationApprovals.approverId, decision: operationApprovals.decision })
              .from(operationApprovals)
              .where(eq(operationApprovals.requestId, id))
          : [];
      if (verdict === 'approve') {
        const refusal = await independenceRefusal(
          reader,
          actor.id,
          row.requesterId,
          decided.filter((e) => e.decision === 'approve').map((e) => e.id),
        );
        if (refusal) return { kind: 'not-independent', sentence: refusal };
      }
      if (row.status !== 'PENDING_APPROVAL') return { kind: 'not-open', status: row.status };
      if (isExpired(row.expiresAt, at)) return { kind: 'expired' };
      if (dry && decided.some((e) => e.id === actor.id)) return { kind: 'twice' };
      return null;
    }
    if (proof) {
      // Read first, without a lock: a decision refused anyway says why without asking for the second factor.
      // The transaction below checks everything again under the request's lock.
      const before = await findRequest(id);
      const refused = before ? await gate(db, before, true) : { kind: 'missing' as const };
      if (refused?.kind === 'expired') return fail('This request has expired and can no longer be approved.');
      if (refused) {
        current = before;
        decision = refused;
      } else if (!(await proof())) return fail(PROOF_REQUIRED, 401);
    }
    try {
      decision ??= await decideInTransaction();
    } catch (error) {
      if (error instanceof DestinationRefused && current) {
        await audit(actor, `${current.type}.${verdict}`, 'refused', id, { reason: 'destination' });
        return fail(`${error.message} The approval was not recorded.`, 422);
      }
      if (!(error instanceof LimitRefused) || !current) throw error;
      await audit(actor, `${current.type}.${verdict}`, 'refused', id, {
        reason: 'spending limit',
        rule: error.check.refusedBy?.ruleId ?? null,
      });
      return { ...limitRefusal(error.check), error: `${error.message} The approval was not recorded.` };
    }
    async function decideInTransaction(): Promise<Decision> {
      return db.transaction(async (tx): Promise<Decision> => {
        // Serialises decisions on one request: the count below then sees every earlier approval.
        const [row] = await tx
          .select()
          .from(operationRequests)
          .where(eq(operationRequests.id, id))
          .for('update');
        if (!row) return { kind: 'missing' };
        current = row;
        const refused = await gate(tx as unknown as typeof db, row, false);
        if (refused?.kind === 'expired') {
          await tx
            .update(operationRequests)
            .set({ status: 'EXPIRED', updatedAt: at })
            .where(and(eq(operationRequests.id, id), eq(operationRequests.status, 'PENDING_APPROVAL')));
          await tx.insert(operationEvents).values({ requestId: id, kind: 'expired', actorEmail: null, at });
          return refused;
        }
        if (refused) return refused;
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
        // The count, and whether any spending limit is in force, in one read.
        const [tally] = await tx
          .select({ n: count(), limited: limitsInForce() })
          .from(operationApprovals)
          .where(and(eq(operationApprovals.requestId, id), eq(operationApprovals.decision, 'approve')));
        const approvals = Number(tally?.n ?? 0);
        let approved = false;
        if (approvals >= row.requiredApprovals && isLimitedKind(row.type) && tally?.limited) {
          await takeLimitsLock(tx);
          // The last approval checks the limits again, under the lock, against what is committed now: of two
          // requests approved at the same moment, the second sees the first.
          const limits = await checkLimits(
            tx,
            candidateOf(row.type, row.walletId, row.requesterId, row.payload, row.review),
            at,
            'approval',
            id,
          );
          // Nothing of this approval is kept: the transaction is rolled back.
          if (limits.refusedBy) throw new LimitRefused(limits);
          // The extra approvers already counted in: at creation, or by an earlier check like this one.
          const [raised] = await tx
            .select({ detail: operationEvents.detail })
            .from(operationEvents)
            .where(and(eq(operationEvents.requestId, id), eq(operationEvents.kind, 'limits_rechecked')))
            .orderBy(desc(operationEvents.id))
            .limit(1);
          const before =
            typeof raised?.detail.extraApprovals === 'number'
              ? raised.detail.extraApprovals
              : ((row.review as { limits?: LimitCheck }).limits?.extraApprovals ?? 0);
          const raisedTo = row.requiredApprovals + Math.max(0, limits.extraApprovals - before);
          if (raisedTo > approvals) {
            await tx
              .update(operationRequests)
              .set({ requiredApprovals: raisedTo, updatedAt: at })
              .where(eq(operationRequests.id, id));
            await tx.insert(operationEvents).values({
              requestId: id,
              kind: 'limits_rechecked',
              actorEmail: null,
              detail: {
                requiredApprovals: raisedTo,
                extraApprovals: limits.extraApprovals,
                rules: limits.rows.filter((r) => r.breached).map((r) => r.rule),
              },
              at,
            });
            return { kind: 'recorded', approvals, approved: false, rejected: false, raisedTo };
          }
        }
        if (approvals >= row.requiredApprovals) {
          // Where the money goes, as the address book stands now: an entry changed or removed since the request
          // was made counts as it is. Thrown, so the transaction (this approval with it) is rolled back.
          const refusal = await destinationRefusal(tx, row.type, row.walletId, row.payload, row.review, at);
          if (refusal) throw new DestinationRefused(refusal);
          assertTransition('PENDING_APPROVAL', 'APPROVED');
          const moved = await tx
            .update(operationRequests)
            .set({ status: 'APPROVED', updatedAt: at })
            .where(and(eq(operationRequests.id, id), eq(operationRequests.status, 'PENDING_APPROVAL')))
            .returning({ id: operationRequests.id });
          approved = moved.length === 1;
        }
        if (approved) current = { ...row, status: 'APPROVED', updatedAt: at };
        return { kind: 'recorded', approvals, approved, rejected: false };
      });
    }
    if (decision.kind === 'missing' || !current) return fail('No such request.', 404);
    if (decision.kind === 'unknown-type') return fail('Unknown operation type.', 422);
    const auditAction = `${current.type}.${verdict}`;
    switch (decision.kind) {
      case 'denied':
        await audit(actor, auditAction, 'denied', id);
        return fail('You do not have permission to do this.', 403);
      case 'own':
        await audit(actor, auditAction, 'denied', id, { reason: 'own request' });
        return fail('You cannot approve or reject your own request.', 403);
      case 'not-independent':
        await audit(actor, auditAction, 'denied', id, { reason: 'not independent of the other parties' });
        return fail(decision.sentence, 403);
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
        await alerts.requestFailed(current, 'Your request expired before it was approved', 'expired');
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
      await alerts.requestFailed(
        current,
        `Your request was rejected by ${actor.email}${reason ? `: ${reason}` : ''}`,
        'rejected',
      );
      return { ok: true as const, data: { status: 'REJECTED' as string } };
    }
    if (decision.raisedTo !== undefined)
      await notifyApprovers(
        current,
        `A spending limit is now broken: this request needs ${decision.raisedTo} approvals (${current.summary}).`,
      );
    if (!decision.approved) return { ok: true as const, data: { status: 'PENDING_APPROVAL' as string } };
    const approved = {
      requestId: id,
      kind: 'fully_approved',
      actorEmail: null,
      detail: { approvals: decision.approvals },
      at: now(),
    };
    await alerts.requestReady(current);
    const approvedRow = current;
    // The final approval's event (whether or not the freeze lets the request go now), and the claim.
    const claimed = await db.transaction((tx) =>
      claim(tx, id, approvedRow.type, SYSTEM_ACTOR, approvedRow, approved),
    );
    // Not claimed: the freeze holds it, and lifting the freeze sends it.
    const after = claimed
      ? await runSubmission(claimed.row, SYSTEM_ACTOR, twoFactorCode, claimed)
      : (await findRequest(id))?.status;
    return { ok: true as const, data: { status: after ?? 'APPROVED' } };
  }

  const approve = (actor: EngineActor, id: string, twoFactorCode?: string, proof?: DecisionProof) =>
    decide(actor, id, 'approve', undefined, twoFactorCode, proof);

  const reject = (actor: EngineActor, id: string, reason: string, proof?: DecisionProof) =>
    decide(actor, id, 'reject', reason, undefined, proof);

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

  /**
   * A revoked API token's requests still waiting for approval are cancelled with it: a leaked token's requests
   * must not move money once an admin has cut it off. Approved ones were approved by people and go on.
   */
  async function cancelRequestsOf(actor: EngineActor, requesterId: string, reason: string) {
    const waiting = await db
      .select({ id: operationRequests.id, type: operationRequests.type })
      .from(operationRequests)
      .where(
        and(eq(operationRequests.requesterId, requesterId), eq(operationRequests.status, 'PENDING_APPROVAL')),
      );
    let cancelled = 0;
    for (const row of waiting) {
      if (!(await transition(row.id, 'PENDING_APPROVAL', 'CANCELLED'))) continue;
      await event(row.id, 'cancelled', actor.email, { reason });
      await audit(actor, `${row.type}.cancel`, 'success', row.id, { reason });
      cancelled += 1;
    }
    return cancelled;
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
    options: { acknowledged?: boolean; proof?: DecisionProof } = {},
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
      return { ok: true as const, data: { status: await runSubmission(again, actor) } };
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

  /**
   * One person records what the service's own dashboard shows ("paid, transaction X", "not paid", "failed");
   * a second person confirms it before anything changes. Both steps are audited.
   */
  async function proposeResolution(
    actor: EngineActor,
    id: string,
    input: { verdict: ResolutionVerdict; transactionIds?: string[]; note: string },
    proof?: DecisionProof,
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
    // "Paid" settles every item; a kind sent in several calls with calls never sent would end without them.
    if (input.verdict === 'paid' && type.unsent(row.result).length > 0)
      return fail(
        'Some batches of this request were never sent, so "paid" cannot close it. Use "Check now" to let the console find the batch in doubt by its references.',
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
    if (proof && !(await proof())) return fail(PROOF_REQUIRED, 401);
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

  async function confirmResolution(actor: EngineActor, id: string, proof?: DecisionProof) {
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
    const standsIn = await independenceRefusal(db, actor.id, row.requesterId, [proposal.byId]);
    if (standsIn) return fail(standsIn, 403);
    if (proposal.status !== row.status) return fail('The request changed since the resolution was recorded.');
    if (proof && !(await proof())) return fail(PROOF_REQUIRED, 401);
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

  /**
   * A secret a configuration change produced (a service token), shown once to the admin who asked for it and
   * then dropped: the sealed copy is removed by one conditional update, so two
   * tabs cannot both read it.
   */
  async function takeSealedSecret(
    actor: EngineActor,
    id: string,
    secret: {
      type: string;
      /** The key under `result.sealed`, and the result's flag that says whether it waits or was shown. */
      field: 'tokenSecret';
      binding: string;
      audit: string;
      /** Who sees it ("Only the admin who asked for this token …"), and what to do once it is gone. */
      notYours: string;
      gone: string;
    },
  ) {
    const row = await findRequest(id);
    if (row?.type !== secret.type) return fail('No such request.', 404);
    if (row.requesterId !== actor.id) {
      await audit(actor, secret.audit, 'denied', id);
      return fail(secret.notYours, 403);
    }
    const stored = row.result as { sealed?: Record<string, string>; message?: string } | null;
    const sealed = stored?.sealed?.[secret.field];
    if (row.status !== 'SUCCESS' || !stored || !sealed) return fail(secret.gone, 410);
    const { sealed: _dropped, ...rest } = stored;
    const [taken] = await db
      .update(operationRequests)
      .set({ result: { ...rest, [secret.field]: 'shown' }, updatedAt: now() })
      .where(
        and(
          eq(operationRequests.id, id),
          sql`${operationRequests.result} -> 'sealed' ->> ${secret.field} = ${sealed}`,
        ),
      )
      .returning({ id: operationRequests.id });
    if (!taken) return fail(secret.gone, 410);
    const value = configuration.open(sealed, secret.binding);
    await audit(actor, secret.audit, 'success', id);
    return { ok: true as const, data: { value, review: row.review as Record<string, unknown> } };
  }

  /** A new or rotated service token (and its webhook secret), shown once to the admin who asked for it. */
  async function takeTokenSecret(actor: EngineActor, id: string) {
    const row = await findRequest(id);
    const type = row?.type === 'serviceTokenRotate' ? 'serviceTokenRotate' : 'serviceTokenCreate';
    const taken = await takeSealedSecret(actor, id, {
      type,
      field: 'tokenSecret',
      binding: `service-token:${id}`,
      audit: 'serviceToken.reveal',
      notYours: 'Only the admin who asked for this token sees it.',
      gone: 'The token was shown once and is not kept. Rotate it if it was lost.',
    });
    if (!taken.ok) return taken;
    const [token, webhookSecret] = taken.data.value.split('\n');
    return { ok: true as const, data: { token: token ?? '', webhookSecret: webhookSecret || null } };
  }

  /**
   * The approved reveal of a private key, taken by the admin who asked for it: once, before `revealUntil`, for
   * the address it names. Taking it marks the key shown; `giveBackPrivateKeyReveal` undoes that when the service
   * then returned no key.
   */
  async function takePrivateKeyReveal(
    actor: EngineActor,
    id: string,
    target: { walletId: string; addressId: string },
  ) {
    const row = await findRequest(id);
    const stored = (row?.result ?? null) as ConfigurationResult | null;
    if (row?.type !== 'privateKeyReveal' || !stored)
      return fail('No approved request to show this key.', 404);
    if (row.requesterId !== actor.id) {
      await audit(actor, 'privateKey.reveal', 'denied', id);
      return fail('Only the admin who asked for this key sees it.', 403);
    }
    if (stored.walletId !== target.walletId || stored.addressId !== target.addressId)
      return fail('That request was approved for another address.', 403);
    if (row.status !== 'SUCCESS' || stored.privateKey !== 'waiting')
      return fail('The private key was shown once. Ask again if it is needed.', 410);
    if (!stored.revealUntil || now().getTime() >= Date.parse(stored.revealUntil))
      return fail('The time to see this private key has passed. Ask again if it is needed.', 410);
    const [taken] = await db
      .update(operationRequests)
      .set({ result: { ...stored, privateKey: 'shown' }, updatedAt: now() })
      .where(and(eq(operationRequests.id, id), sql`${operationRequests.result} ->> 'privateKey' = 'waiting'`))
      .returning({ id: operationRequests.id });
    if (!taken) return fail('The private key was shown once. Ask again if it is needed.', 410);
    return { ok: true as const, data: null };
  }

  /** The service returned no key after all: the reveal waits again (within its time). */
  async function giveBackPrivateKeyReveal(id: string) {
    const row = await findRequest(id);
    const stored = (row?.result ?? null) as ConfigurationResult | null;
    if (row?.type !== 'privateKeyReveal' || !stored) return;
    await db
      .update(operationRequests)
      .set({ result: { ...stored, privateKey: 'waiting' }, updatedAt: now() })
      .where(and(eq(operationRequests.id, id), sql`${operationRequests.result} ->> 'privateKey' = 'shown'`));
  }

  return {
    hasRequest,
    takeTokenSecret,
    takePrivateKeyReveal,
    giveBackPrivateKeyReveal,
    cancelRequestsOf,
    preview,
    create,
    approve,
    reject,
    cancel,
    resubmit,
    checkNow,
    proposeResolution,
    confirmResolution,
    discardResolution,
    updatePolicy,
    setFreeze,
  };
}
