'use server';
import { z } from 'zod';
import { type RequestedChange, requestWalletChange } from '@/lib/actions/configuration-request';
import { ActionRefusal, type ActionResult, defineAction } from '@/lib/actions/define-action';
import type { CustodyClient } from '@/lib/custody';
import { checkDestinations } from '@/lib/server/address-book';
import { currentDb } from '@/lib/server/services';
import { fieldErrorsOf } from '@/lib/validation/errors';
import {
  ruleChoicesOf,
  ruleFormSchema,
  ruleFormSchemaFor,
  toRuleBody,
  walletSettlementSchema,
} from '@/lib/validation/settlement';
import { plainText } from '@/lib/validation/text';

// Every change here is a request a second admin approves; the approval engine audits it and sends it to the
// custody service when the last approval lands. Nothing changes at the service before that.

/** Asks to switch the wallet's auto-settlement on or off (#9). */
export const setWalletSettlementAction = defineAction({
  permission: 'settlementToggle.request',
  input: walletSettlementSchema,
  target: (input) => input.walletId,
  context: 'settlement toggle',
  stepUp: (input) => ({ change: 'settlementToggle', ...input }),
  run: async ({ input: { walletId, isActive }, actor }): Promise<ActionResult<RequestedChange>> =>
    requestWalletChange(actor, 'settlementToggle', walletId, { isActive }),
});

const createRuleSchema = z.object({
  walletId: plainText().min(1).max(100),
  addressId: plainText().min(1).max(100),
  rule: ruleFormSchema,
});
const updateRuleSchema = createRuleSchema.extend({ ruleId: plainText().min(1).max(100) });

/**
 * The rule held to the wallet's own assets and blockchains (read from the service), and the destination of a
 * rule in force to the address book's rules (an entry past its cooling-off, under the destination policy):
 * anything else is refused at its field before anything is requested.
 */
async function ruleForWallet(client: CustodyClient, walletId: string, rule: z.output<typeof ruleFormSchema>) {
  const wallet = await client.wallets.get({ walletId });
  const parsed = ruleFormSchemaFor(ruleChoicesOf(wallet.data)).safeParse(rule);
  if (!parsed.success) throw new ActionRefusal('Check the highlighted fields.', fieldErrorsOf(parsed.error));
  // A rule switched off forwards nothing: switching one off is never refused.
  const body = toRuleBody(parsed.data);
  const [problem] = body.isActive
    ? (await checkDestinations(await currentDb(), walletId, [body.destination.address], new Date())).problems
    : [];
  if (problem)
    throw new ActionRefusal(`${problem.message} Nothing was requested.`, {
      destinationAddress: problem.message,
    });
  return parsed.data;
}

/** Asks for a new auto-settlement rule on a child address (#10). */
export const createAddressRuleAction = defineAction({
  permission: 'settlementRule.request',
  input: createRuleSchema,
  fieldsUnder: 'rule',
  target: (input) => input.walletId,
  context: 'settlement rule',
  stepUp: (input) => ({ change: 'settlementRule', ...input }),
  run: async ({
    input: { walletId, addressId, rule },
    actor,
    custody,
  }): Promise<ActionResult<RequestedChange>> => {
    const checked = await ruleForWallet(await custody(walletId), walletId, rule);
    return requestWalletChange(actor, 'settlementRule', walletId, {
      addressId,
      ruleId: null,
      rule: toRuleBody(checked),
    });
  },
});

/** Asks to replace one of a child address's auto-settlement rules (#11). */
export const updateAddressRuleAction = defineAction({
  permission: 'settlementRule.request',
  input: updateRuleSchema,
  fieldsUnder: 'rule',
  target: (input) => input.walletId,
  context: 'settlement rule',
  stepUp: (input) => ({ change: 'settlementRule', ...input }),
  run: async ({
    input: { walletId, addressId, ruleId, rule },
    actor,
    custody,
  }): Promise<ActionResult<RequestedChange>> => {
    const checked = await ruleForWallet(await custody(walletId), walletId, rule);
    return requestWalletChange(actor, 'settlementRule', walletId, {
      addressId,
      ruleId,
      rule: toRuleBody(checked),
    });
  },
});
