'use server';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { defineAction, ok } from '@/lib/actions/define-action';
import type { AutoSettlementRule } from '@/lib/custody/schemas';
import { ruleFormSchema, toRuleBody, walletSettlementSchema } from '@/lib/validation/settlement';

/** Turns the wallet's auto-settlement on or off (#9). */
export const setWalletSettlementAction = defineAction({
  permission: 'settlement.edit',
  input: walletSettlementSchema,
  context: 'settlement toggle',
  audit: {
    action: 'settlement.wallet_toggle',
    input: ({ isActive }) => ({ isActive }),
    target: ({ walletId }) => walletId,
  },
  run: async ({ input: { walletId, isActive }, custody }) => {
    const client = await custody(walletId);
    const result = await client.autoSettlement.update({ walletId }, { isActive });
    revalidatePath(`/wallets/${walletId}/settlement`);
    return ok({ isActive: result.data.isActive });
  },
});

const createRuleSchema = z.object({
  walletId: z.string().min(1),
  addressId: z.string().min(1),
  rule: ruleFormSchema,
});
const updateRuleSchema = createRuleSchema.extend({ ruleId: z.string().min(1) });

type RuleInput = z.output<typeof createRuleSchema> & { ruleId?: string };

const ruleAudit = (action: string) => ({
  action,
  input: ({ addressId, rule }: RuleInput) => ({ addressId, ...toRuleBody(rule) }),
  target: ({ addressId, ruleId }: RuleInput, data?: AutoSettlementRule) => data?.id ?? ruleId ?? addressId,
});

/** Creates an auto-settlement rule on a child address (#10). */
export const createAddressRuleAction = defineAction({
  permission: 'settlement.edit',
  input: createRuleSchema,
  fieldsUnder: 'rule',
  context: 'settlement.rule_create',
  audit: ruleAudit('settlement.rule_create'),
  run: async ({ input: { walletId, addressId, rule }, custody }) => {
    const client = await custody(walletId);
    const result = await client.addressRules.create({ walletId, addressId }, toRuleBody(rule));
    revalidatePath(`/wallets/${walletId}/settlement`);
    return ok<AutoSettlementRule>(result.data);
  },
});

/** Replaces one of a child address's auto-settlement rules (#11). */
export const updateAddressRuleAction = defineAction({
  permission: 'settlement.edit',
  input: updateRuleSchema,
  fieldsUnder: 'rule',
  context: 'settlement.rule_update',
  audit: ruleAudit('settlement.rule_update'),
  run: async ({ input: { walletId, addressId, ruleId, rule }, custody }) => {
    const client = await custody(walletId);
    const result = await client.addressRules.update({ walletId, addressId, id: ruleId }, toRuleBody(rule));
    revalidatePath(`/wallets/${walletId}/settlement`);
    return ok<AutoSettlementRule>(result.data);
  },
});
