'use server';
import { defineAction } from '@/lib/actions/define-action';
import { looksLikeMissingEndpoint, lookUpTransactions } from '@/lib/server/approvals/lookup';
import { createOperationRequest } from '@/lib/server/approvals/request-actions';
import { audit } from '@/lib/server/guard';
import { retryTransactionSchema } from '@/lib/validation/custody-ids';

/**
 * #1 moves money again, so a retry of a FAILED transaction becomes an approval request like a withdrawal:
 * another person approves it, the policy and the freeze apply, and it is sent once. The status is read from
 * the custody service first: the button may be stale, and retrying anything but a failure is refused.
 * The approval engine audits the request it creates.
 */
export const retryTransactionAction = defineAction({
  permission: 'transaction.retry',
  resource: 'transactions',
  input: retryTransactionSchema,
  invalid: 'first-issue',
  context: 'retry transaction',
  run: async ({ actor, input, custody }) => {
    const { walletId, transactionId } = input;
    const addressId = input.addressId ?? null;
    const client = await custody(walletId);
    const found = await lookUpTransactions(
      client,
      { walletId, addressId, reference: null, transactionId },
      { missing: new Set(), onMissing: () => {}, isMissingEndpoint: looksLikeMissingEndpoint },
    );
    const current = found.transactions.find((t) => t.id === transactionId);
    if (current && current.status !== 'FAILED') {
      await audit(actor, 'transaction.retry', 'refused', {
        target: transactionId,
        input: { walletId, transactionId, status: current.status },
      });
      return { ok: false, error: `Only failed transactions can be retried; this one is ${current.status}.` };
    }
    return createOperationRequest(
      async () => ({ ok: true, actor, walletId, kind: 'retry', payload: { transactionId, addressId } }),
      'retry',
    );
  },
});
