import 'server-only';
// The review a requester sees before creating the request.
import { randomUUID } from 'node:crypto';
import { CONSOLE_SCOPE } from '@/lib/approvals/configuration';
import { checkLimits, isLimitedKind } from '../../limits';
import { operationType } from '../../operations/registry';
import { requiredApprovals } from '../../policy';
import { usdNumber } from '../../usd';
import type { EngineContext } from '../context';
import { type EngineActor, fail } from '../types';
import { destinationsRefused, keepPreview, previewKey, reviewOrRefusal } from './review';
import { candidateOf, limitRefusal } from './shared';

/** The review a requester sees before creating the request (references are provisional). */
export async function preview(
  ctx: EngineContext,
  {
    actor,
    typeKey,
    scope,
    payload,
  }: { actor: EngineActor; typeKey: string; scope: string; payload: unknown },
) {
  const { db, now, mayAct, referencesFor, referenceClashes, clashResult, getPolicy } = ctx;
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
  const built = await reviewOrRefusal(ctx, operation, walletId, previewId, actor);
  if ('error' in built) return built;
  const refused = await destinationsRefused(ctx, operation, walletId, built);
  if (refused) return refused;
  keepPreview(ctx, previewKey(actor, type, walletId, operation.payload), previewId, built);
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
