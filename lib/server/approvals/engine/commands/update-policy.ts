import 'server-only';
// An approval policy edited by an admin.
import { approvalPolicies } from '@/lib/db/schema';
import { operationType } from '../../operations/registry';
import type { PolicyValues } from '../../policy';
import type { EngineContext } from '../context';
import { type EngineActor, fail } from '../types';

export async function updatePolicy(
  ctx: EngineContext,
  { actor, type, values }: { actor: EngineActor; type: string; values: PolicyValues },
) {
  const { db, now, audit, getPolicy, alerts } = ctx;
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
