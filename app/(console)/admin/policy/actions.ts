'use server';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getApprovalEngine } from '@/lib/server/approvals';
import { MAX_EXPIRY_SECONDS, MIN_EXPIRY_SECONDS } from '@/lib/server/approvals/policy';
import { OPERATION_TYPES } from '@/lib/server/approvals/registry';
import { type ActionResult, authorize } from '@/lib/server/guard';

const policySchema = z.object({
  operationType: z.string().refine((t) => Object.hasOwn(OPERATION_TYPES, t), 'Unknown operation type.'),
  approvals: z.coerce
    .number({ message: 'Enter a whole number.' })
    .int({ message: 'Enter a whole number.' })
    .min(1, { message: 'At least one approver is needed.' })
    .max(10, { message: 'At most 10 approvers.' }),
  thresholdUsd: z
    .string()
    .trim()
    .refine((v) => v === '' || (/^\d+(\.\d{1,2})?$/.test(v) && Number(v) >= 0), {
      message: 'Enter a USD amount such as 10000, or leave it empty for no threshold.',
    }),
  expiryMinutes: z
    .string()
    .trim()
    .refine((v) => /^\d+(\.\d+)?$/.test(v), { message: 'Enter a number of minutes.' })
    .transform(Number)
    .refine((m) => m * 60 >= MIN_EXPIRY_SECONDS && m * 60 <= MAX_EXPIRY_SECONDS, {
      message: `Between ${MIN_EXPIRY_SECONDS} seconds and 30 days.`,
    }),
});

export async function updatePolicyAction(input: unknown): Promise<ActionResult> {
  const authz = await authorize('policy.edit', 'approval-policy');
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  const parsed = policySchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0] ?? 'form')] ??= issue.message;
    return { ok: false, error: 'Check the highlighted fields.', fieldErrors };
  }
  const { operationType, approvals, thresholdUsd, expiryMinutes } = parsed.data;
  const result = await (await getApprovalEngine()).updatePolicy(authz.actor, operationType, {
    approvals,
    thresholdUsd: thresholdUsd === '' ? null : Number(thresholdUsd),
    expirySeconds: Math.round(expiryMinutes * 60),
  });
  if (!result.ok) return { ok: false, error: result.error };
  revalidatePath('/admin/policy');
  return { ok: true, data: undefined };
}

const freezeSchema = z.object({ enabled: z.boolean() });

export async function setFreezeAction(
  input: unknown,
): Promise<ActionResult<{ enabled: boolean; submitted: number }>> {
  const authz = await authorize('freeze.toggle', 'console');
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  const parsed = freezeSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: 'Invalid input.' };
  const result = await (await getApprovalEngine()).setFreeze(authz.actor, parsed.data.enabled);
  revalidatePath('/', 'layout');
  return result;
}
