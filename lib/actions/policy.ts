'use server';
import { revalidatePath } from 'next/cache';
import { type RequestedChange, requestConfigurationChange } from '@/lib/actions/configuration-request';
import { type ActionResult, defineAction, ok, refuse } from '@/lib/actions/define-action';
import { isSamePolicy, POLICY_UNCHANGED } from '@/lib/approvals/policy';
import { getApprovalEngine } from '@/lib/server/approvals';
import { freezeSchema, policySchema } from '@/lib/validation/policy';

// The approval engine audits policy requests, the freeze and its lifting itself.

/** Asks for a policy change; a second admin approves it, and it applies from then on. */
export const updatePolicyAction = defineAction({
  permission: 'policyEdit.request',
  resource: 'approval-policy',
  input: policySchema,
  context: 'update approval policy',
  stepUp: (input) => ({ change: 'policyEdit', ...input }),
  run: async ({ input: { operationType, approvals, thresholdUsd, expiryMinutes }, actor }) => {
    const after = {
      approvals,
      thresholdUsd: thresholdUsd === '' ? null : Number(thresholdUsd),
      expirySeconds: Math.round(expiryMinutes * 60),
    };
    // A request that changes nothing would still take a second admin's time and read as a change in the log.
    const before = await (await getApprovalEngine()).getPolicy(operationType);
    if (isSamePolicy(before, after)) return refuse(POLICY_UNCHANGED, { status: 422 });
    return requestConfigurationChange(actor, 'policyEdit', { operationType, ...after });
  },
});

export type FreezeOutcome = { kind: 'frozen' } | RequestedChange;

/** Freezing is immediate (it only stops money moving); lifting the freeze is a request a second admin approves. */
export const setFreezeAction = defineAction({
  permission: ({ enabled }) => (enabled ? 'freeze.toggle' : 'freezeLift.request'),
  input: freezeSchema,
  target: () => 'console',
  context: 'freeze toggle',
  stepUp: ({ enabled }) => ({ change: enabled ? 'freeze' : 'freezeLift' }),
  run: async ({ input, actor }): Promise<ActionResult<FreezeOutcome>> => {
    if (!input.enabled) return requestConfigurationChange(actor, 'freezeLift', {});
    await (await getApprovalEngine()).setFreeze(actor, true);
    revalidatePath('/', 'layout');
    return ok({ kind: 'frozen' });
  },
});
