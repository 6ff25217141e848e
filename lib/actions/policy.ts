'use server';
import { revalidatePath } from 'next/cache';
import { defineAction, ok, refuse } from '@/lib/actions/define-action';
import { getApprovalEngine } from '@/lib/server/approvals';
import { freezeSchema, policySchema } from '@/lib/validation/policy';

// The approval engine audits policy changes and the freeze itself.

export const updatePolicyAction = defineAction({
  permission: 'policy.edit',
  resource: 'approval-policy',
  input: policySchema,
  context: 'update approval policy',
  run: async ({ input: { operationType, approvals, thresholdUsd, expiryMinutes }, actor }) => {
    const result = await (await getApprovalEngine()).updatePolicy(actor, operationType, {
      approvals,
      thresholdUsd: thresholdUsd === '' ? null : Number(thresholdUsd),
      expirySeconds: Math.round(expiryMinutes * 60),
    });
    if (!result.ok) return refuse(result.error);
    revalidatePath('/admin/policy');
    return ok(undefined);
  },
});

export interface FreezeOutcome {
  enabled: boolean;
  /** Approved requests submitted when the freeze was lifted. */
  submitted: number;
}

export const setFreezeAction = defineAction({
  permission: 'freeze.toggle',
  resource: 'console',
  input: freezeSchema,
  context: 'freeze toggle',
  run: async ({ input, actor }) => {
    const result = await (await getApprovalEngine()).setFreeze(actor, input.enabled);
    revalidatePath('/', 'layout');
    return ok<FreezeOutcome>(result.data);
  },
});
