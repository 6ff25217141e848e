'use server';
import { z } from 'zod';
import { ActionRefusal, defineAction, ok } from '@/lib/actions/define-action';
import { isReviewOf } from '@/lib/approvals/kinds';
import { CustodyError } from '@/lib/custody';
import { lookUpTypedAddress } from '@/lib/server/address-lookup';
import { getApprovalEngine, sourceBalances } from '@/lib/server/approvals';
import { compareSwapQuote } from '@/lib/server/approvals/operations/swap';
import { checkSwap } from '@/lib/server/request-payloads';
import { requestIdSchema } from '@/lib/validation/approvals';
import { swapFormSchema } from '@/lib/validation/swap-schema';
import type { SwapFormValues, SwapPayload } from '@/lib/validation/swaps';

/** The form's meaning against the address's balances as the custody service reports them. */
async function checkedPayload(values: SwapFormValues) {
  const checked = await checkSwap(values);
  if (!checked.ok) throw new ActionRefusal(checked.error, checked.fieldErrors, checked.status);
  return checked.payload;
}

const swap = {
  permission: 'swap.request' as const,
  input: swapFormSchema,
  invalid: 'first-issue' as const,
  target: (values: SwapFormValues) => values.walletId,
};

/** The review approvers will see, without creating the request. The engine audits requests itself. */
export const previewSwapAction = defineAction({
  ...swap,
  context: 'swap preview',
  run: async ({ actor, input }) => {
    const payload = await checkedPayload(input);
    const preview = await (await getApprovalEngine()).preview(actor, 'swap', input.walletId, payload);
    if (!preview.ok) return preview;
    const { review } = preview.data;
    if (!isReviewOf(review, 'swap')) throw new Error('The swap preview has a review of another kind.');
    return ok({
      review,
      requiredApprovals: preview.data.requiredApprovals,
    });
  },
});

/** Creates the approval request; nothing is sent upstream until it is approved. */
export const createSwapRequestAction = defineAction({
  ...swap,
  context: 'swap request',
  run: async ({ actor, input }) => {
    const payload = await checkedPayload(input);
    const created = await (await getApprovalEngine()).create(actor, 'swap', input.walletId, payload);
    if (!created.ok) return created;
    return ok({ id: created.data.id });
  },
});

const balancesInput = z.object({
  walletId: z.string().min(1).max(100),
  addressId: z.string().min(1, 'Choose a child address.').max(100),
});

/**
 * Balances of the chosen child address, for the form's asset picker and amount check; null when the service
 * cannot report balances.
 */
export const swapBalancesAction = defineAction({
  permission: 'swap.request',
  input: balancesInput,
  invalid: 'first-issue',
  context: 'swap balances',
  run: async ({ input }) => {
    const balances = await sourceBalances(input.walletId, input.addressId);
    return ok(
      balances
        ? balances.map((b) => ({ assetId: b.assetId, balance: b.balance, priceUsd: b.priceUsd }))
        : null,
    );
  },
});

/** Checks an address id typed into the form (#5) and answers it as an address option. */
export async function lookUpSwapAddressAction(input: unknown) {
  return lookUpTypedAddress('swap.request', input);
}

/**
 * The service's quote now beside the approved one, for an approver about to approve a swap whose quote may
 * have expired. Reads only: nothing is approved or sent.
 */
export const checkSwapQuoteAction = defineAction({
  permission: 'swap.approve',
  input: requestIdSchema,
  invalid: 'first-issue',
  target: ({ requestId }) => requestId,
  context: 'check swap quote',
  run: async ({ input: { requestId }, custody }) => {
    const view = await (await getApprovalEngine()).view(requestId);
    if (view?.request.type !== 'swap') throw new ActionRefusal('This is not a swap request.');
    const client = await custody(view.request.walletId);
    try {
      return ok(
        await compareSwapQuote(
          client,
          view.request.walletId,
          // Checked against the swap's schema when the request was made, and bound by its hash since.
          view.request.payload as unknown as SwapPayload,
          view.request.review,
        ),
      );
    } catch (error) {
      if (error instanceof CustodyError && !error.outcomeUnknown)
        throw new ActionRefusal(`The service gave no quote: ${error.message}`);
      throw error;
    }
  },
});
