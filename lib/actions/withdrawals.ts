'use server';
import { z } from 'zod';
import { ActionRefusal, defineAction, ok } from '@/lib/actions/define-action';
import { isReviewOf } from '@/lib/approvals/kinds';
import type { WithdrawalReview } from '@/lib/approvals/withdrawals';
import { lookUpTypedAddress } from '@/lib/server/address-lookup';
import { getApprovalEngine, sourceBalances } from '@/lib/server/approvals';
import { checkWithdrawal } from '@/lib/server/request-payloads';
import { withdrawalFormSchema } from '@/lib/validation/withdrawal-schema';
import type { WithdrawalFormValues } from '@/lib/validation/withdrawals';

/** The form's meaning against the wallet as the custody service describes it; refuses with field errors. */
async function checkedPayload(values: WithdrawalFormValues) {
  const checked = await checkWithdrawal(values);
  if (!checked.ok) throw new ActionRefusal(checked.error, checked.fieldErrors, checked.status);
  return checked.payload;
}

const withdrawal = {
  permission: (values: WithdrawalFormValues) =>
    values.kind === 'withdrawSign' ? ('withdrawSign.request' as const) : ('withdraw.request' as const),
  input: withdrawalFormSchema,
  invalid: 'first-issue' as const,
  target: (values: WithdrawalFormValues) => values.walletId,
};

/** The review approvers will see, without creating the request. The engine audits requests itself. */
export const previewWithdrawalAction = defineAction({
  ...withdrawal,
  context: 'withdrawal preview',
  run: async ({ actor, input }) => {
    const payload = await checkedPayload(input);
    const engine = await getApprovalEngine();
    const preview = await engine.preview(actor, input.kind, input.walletId, payload);
    if (!preview.ok) return preview;
    const { review } = preview.data;
    if (!isReviewOf(review, input.kind))
      throw new Error('The withdrawal preview has a review of another kind.');
    // References are assigned when the request is created; a preview's would never be used.
    return ok<{ review: WithdrawalReview; requiredApprovals: number }>({
      review: { ...review, items: review.items.map((i) => ({ ...i, reference: '' })) },
      requiredApprovals: preview.data.requiredApprovals,
    });
  },
});

/** Creates the approval request once everything validates; nothing is sent upstream here. */
export const createWithdrawalRequestAction = defineAction({
  ...withdrawal,
  context: 'withdrawal request',
  run: async ({ actor, input }) => {
    const payload = await checkedPayload(input);
    const engine = await getApprovalEngine();
    const created = await engine.create(actor, input.kind, input.walletId, payload);
    if (!created.ok) return created;
    return ok({ id: created.data.id });
  },
});

const balancesInput = z.object({
  walletId: z.string().min(1).max(100),
  addressId: z.string().min(1).max(100),
});

/** Balances of a child address; null when the service cannot report balances (unknown, not zero). */
export const sourceBalancesAction = defineAction({
  permission: 'read',
  input: balancesInput,
  context: 'source balances',
  run: async ({ input }) => {
    const balances = await sourceBalances(input.walletId, input.addressId);
    return ok(balances ? balances.map((b) => ({ assetId: b.assetId, balance: b.balance })) : null);
  },
});

/** Checks an address id typed into the form (#5) and answers it as a source option. */
export async function lookUpWithdrawSourceAction(input: unknown) {
  return lookUpTypedAddress('withdraw.request', input);
}
