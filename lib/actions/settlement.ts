'use server';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { ActionRefusal, defineAction, ok } from '@/lib/actions/define-action';
import type { CustodyClient } from '@/lib/custody';
import type { AutoSettlementRule } from '@/lib/custody/schemas';
import { fieldErrorsOf } from '@/lib/validation/errors';
import {
  ruleChoicesOf,
  ruleFormSchema,
  ruleFormSchemaFor,
  toRuleBody,
  walletSettlementSchema,
} from '@/lib/validation/settlement';
import { plainText } from '@/lib/validation/text';

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
  walletId: plainText().min(1).max(100),
  addressId: plainText().min(1).max(100),
  rule: ruleFormSchema,
});
const updateRuleSchema = createRuleSchema.extend({ ruleId: plainText().min(1).max(100) });

/**
 * The rule held to the wallet's own assets and blockchains (read from the service): anything else is refused
 * at its field before the rule is sent.
 */
async function ruleForWallet(client: CustodyClient, walletId: string, rule: z.output<typeof ruleFormSchema>) {
  const wallet = await client.wallets.get({ walletId });
  const parsed = ruleFormSchemaFor(ruleChoicesOf(wallet.data)).safeParse(rule);
  if (!parsed.success) throw new ActionRefusal('Check the highlighted fields.', fieldErrorsOf(parsed.error));
  return parsed.data;
}

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
    const checked = await ruleForWallet(client, walletId, rule);
    const result = await client.addressRules.create({ walletId, addressId }, toRuleBody(checked));
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
    const checked = await ruleForWallet(client, walletId, rule);
    const result = await client.addressRules.update({ walletId, addressId, id: ruleId }, toRuleBody(checked));
    revalidatePath(`/wallets/${walletId}/settlement`);
    return ok<AutoSettlementRule>(result.data);
  },
});
