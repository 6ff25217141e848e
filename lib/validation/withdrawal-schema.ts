// The shape of a withdrawal request as the form holds it and the server action receives it, in zod; the
// meaning (decimals, addresses, balances) is `validateWithdrawal` in `withdrawals.ts`, which the schema of
// the form runs too. A module of its own so that the form's page loads zod at its first validation.
import { z } from 'zod';
import { metadataText, plainText } from './text';
import {
  MAX_RECIPIENTS,
  validateWithdrawal,
  WITHDRAWAL_KINDS,
  type WithdrawalContext,
  type WithdrawalFormRow,
  type WithdrawalFormValues,
} from './withdrawals';

const withdrawalRowSchema = z.object({
  address: plainText().max(200, 'The address is too long.'),
  amount: plainText().max(100, 'The amount is too long.'),
  assetId: plainText().max(100),
  reference: plainText().max(200),
  note: plainText({ multiline: true }).max(1000),
  metadata: metadataText(),
}) satisfies z.ZodType<WithdrawalFormRow, WithdrawalFormRow>;

export const withdrawalFormSchema = z.object({
  walletId: plainText().min(1, 'Choose a wallet.').max(100),
  kind: z.enum(WITHDRAWAL_KINDS, { message: 'Choose withdraw or sign only.' }),
  /** `master`, or the id of a child address. */
  source: plainText().min(1, 'Choose where the funds come from.').max(100),
  rows: z
    .array(withdrawalRowSchema)
    .min(1, 'Add at least one recipient.')
    .max(MAX_RECIPIENTS, `At most ${MAX_RECIPIENTS} recipients per request.`),
}) satisfies z.ZodType<WithdrawalFormValues, WithdrawalFormValues>;

/**
 * The form's schema with the meaning checked too (`validateWithdrawal` against the wallet as the form knows
 * it), so the form shows each problem at its field as the person types; the action checks the same again.
 */
export function withdrawalSchemaFor(context: () => WithdrawalContext) {
  return withdrawalFormSchema.superRefine((values, ctx) => {
    const result = validateWithdrawal(values, context());
    if (result.ok) return;
    for (const [key, message] of Object.entries(result.fieldErrors))
      ctx.addIssue({
        code: 'custom',
        path: key.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
        message,
      });
  });
}
