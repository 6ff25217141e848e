import 'server-only';
// Creating a request: its review, the limits under their lock, the insert with its items and event, in one
// transaction.
import { randomUUID } from 'node:crypto';
import { CONSOLE_SCOPE } from '@/lib/approvals/configuration';
import { operationEvents, operationItems, operationRequests } from '@/lib/db/schema';
import { hashPayload } from '../../hash';
import { checkLimits, isLimitedKind, lockLimits } from '../../limits';
import { operationType } from '../../operations/registry';
import type { BuiltReview } from '../../operations/types';
import { expiryFor, requiredApprovals } from '../../policy';
import { usdNumber } from '../../usd';
import type { EngineContext } from '../context';
import { type EngineActor, fail } from '../types';
import { destinationsRefused, previewKey, reviewOrRefusal, takePreview } from './review';
import { candidateOf, GuardRefused, LimitRefused, limitRefusal } from './shared';

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

/** The request a caller made before under the id it chose; another requester's id is refused. */
async function madeBefore(ctx: EngineContext, actor: EngineActor, id: string) {
  const { findRequest } = ctx;
  const row = await findRequest(id);
  if (!row) return null;
  if (row.requesterId !== actor.id) return fail('That request id is taken.', 409);
  return {
    ok: true as const,
    data: { id, requiredApprovals: row.requiredApprovals, summary: row.summary, existing: true },
  };
}

export async function create(
  ctx: EngineContext,
  {
    actor,
    typeKey,
    scope,
    payload,
    options = {},
  }: { actor: EngineActor; typeKey: string; scope: string; payload: unknown; options?: CreateOptions },
) {
  const {
    db,
    now,
    audit,
    findRequest,
    mayAct,
    referencesFor,
    referenceClashes,
    clashResult,
    getPolicy,
    alerts,
  } = ctx;
  const type = operationType(typeKey);
  if (!type) return fail('Unknown operation type.', 422);
  const walletId = type.scope === 'console' ? CONSOLE_SCOPE : scope;
  if (!(await mayAct(actor, type.permissions.request)))
    return fail('You do not have permission to do this.', 403);
  const operation = type.parse(payload);
  if (!operation) return fail('The request is not valid.', 422);
  const previewed = takePreview(ctx, previewKey(actor, type, walletId, operation.payload));
  const id = options.id ?? previewed?.id ?? randomUUID();
  // A caller that chose the id (an idempotency key, a schedule's run) may call again: what it made answers.
  if (options.id) {
    const made = await madeBefore(ctx, actor, options.id);
    if (made) return made;
  }
  const references = referencesFor(operation, id);
  const clashes = await referenceClashes(type, walletId, references);
  if (clashes) return clashResult(clashes);
  const built = previewed?.built ?? (await reviewOrRefusal(ctx, operation, walletId, id, actor));
  if ('error' in built) return built;
  const refused = await destinationsRefused(ctx, operation, walletId, built);
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
      const made = await madeBefore(ctx, actor, options.id);
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
