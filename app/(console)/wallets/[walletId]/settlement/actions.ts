'use server';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import type { AutoSettlementRule } from '@/lib/custody/schemas';
import { describeFailure } from '@/lib/server/errors';
import { type ActionResult, audit, authorize } from '@/lib/server/guard';
import { custodyFor } from '@/lib/server/wallets';
import { ruleFormSchema, toRuleBody, walletSettlementSchema } from '@/lib/validation/settlement';

function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) out[String(issue.path[0] ?? 'form')] ??= issue.message;
  return out;
}

export async function setWalletSettlementAction(
  input: unknown,
): Promise<ActionResult<{ isActive: boolean }>> {
  const authz = await authorize('settlement.edit');
  if (!authz.ok) return { ok: false, error: authz.error };
  const parsed = walletSettlementSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: 'Invalid request' };
  const { walletId, isActive } = parsed.data;
  const client = await custodyFor(walletId);
  if (!client) return { ok: false, error: 'This wallet is not connected to the console.' };
  try {
    const result = await client.autoSettlement.update({ walletId }, { isActive });
    await audit(authz.actor, 'settlement.wallet_toggle', 'success', {
      target: walletId,
      input: { isActive },
    });
    revalidatePath(`/wallets/${walletId}/settlement`);
    return { ok: true, data: { isActive: result.data.isActive } };
  } catch (error) {
    await audit(authz.actor, 'settlement.wallet_toggle', 'failed', { target: walletId, input: { isActive } });
    return { ok: false, error: describeFailure(error, authz.actor.requestId, 'settlement toggle').message };
  }
}

const saveRuleSchema = z.object({
  walletId: z.string().min(1),
  addressId: z.string().min(1),
  ruleId: z.string().min(1).optional(),
  rule: ruleFormSchema,
});

export async function saveAddressRuleAction(input: unknown): Promise<ActionResult<AutoSettlementRule>> {
  const authz = await authorize('settlement.edit');
  if (!authz.ok) return { ok: false, error: authz.error };
  const parsed = saveRuleSchema.safeParse(input);
  if (!parsed.success) {
    const ruleIssues = parsed.error.issues.filter((i) => i.path[0] === 'rule');
    const fieldErrors: Record<string, string> = {};
    for (const issue of ruleIssues) fieldErrors[String(issue.path[1] ?? 'form')] ??= issue.message;
    return {
      ok: false,
      error: 'Check the highlighted fields.',
      fieldErrors: ruleIssues.length ? fieldErrors : fieldErrorsOf(parsed.error),
    };
  }
  const { walletId, addressId, ruleId, rule } = parsed.data;
  const client = await custodyFor(walletId);
  if (!client) return { ok: false, error: 'This wallet is not connected to the console.' };
  const body = toRuleBody(rule);
  const action = ruleId ? 'settlement.rule_update' : 'settlement.rule_create';
  try {
    const result = ruleId
      ? await client.addressRules.update({ walletId, addressId, id: ruleId }, body)
      : await client.addressRules.create({ walletId, addressId }, body);
    await audit(authz.actor, action, 'success', {
      target: result.data.id ?? ruleId ?? addressId,
      input: { addressId, ...body },
    });
    revalidatePath(`/wallets/${walletId}/settlement`);
    return { ok: true, data: result.data };
  } catch (error) {
    await audit(authz.actor, action, 'failed', {
      target: ruleId ?? addressId,
      input: { addressId, ...body },
    });
    return { ok: false, error: describeFailure(error, authz.actor.requestId, action).message };
  }
}
