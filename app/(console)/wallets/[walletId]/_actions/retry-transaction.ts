'use server';
import { z } from 'zod';
import { looksLikeMissingEndpoint, lookUpTransactions } from '@/lib/server/approvals/lookup';
import { type CheckedOperation, createOperationRequest } from '@/lib/server/approvals/request-actions';
import { describeFailure } from '@/lib/server/errors';
import { type ActionResult, audit, authorize } from '@/lib/server/guard';
import { custodyFor } from '@/lib/server/wallets';

const id = z
  .string()
  .trim()
  .min(1, 'Missing id')
  .max(100)
  .regex(/^[\w-]+$/, 'Not a valid id');
const retrySchema = z.object({ walletId: id, transactionId: id, addressId: id.nullish() });

/**
 * #1 moves money again, so a retry of a FAILED transaction becomes an approval request like a withdrawal:
 * another person approves it, the policy and the freeze apply, and it is sent once. The status is read from
 * the custody service first: the button may be stale, and retrying anything but a failure is refused.
 */
export async function retryTransactionAction(input: unknown): Promise<ActionResult<{ id: string }>> {
  const check = async (): Promise<CheckedOperation> => {
    const authz = await authorize('transaction.retry', 'transactions');
    if (!authz.ok) return { ok: false, result: { ok: false, error: authz.error, status: authz.status } };
    const parsed = retrySchema.safeParse(input);
    if (!parsed.success)
      return { ok: false, result: { ok: false, error: parsed.error.issues[0]?.message ?? 'Invalid input' } };
    const { walletId, transactionId } = parsed.data;
    const addressId = parsed.data.addressId ?? null;
    const client = await custodyFor(walletId);
    if (!client)
      return { ok: false, result: { ok: false, error: 'This wallet is not connected to the console.' } };
    try {
      const found = await lookUpTransactions(
        client,
        { walletId, addressId, reference: null, transactionId },
        { missing: new Set(), onMissing: () => {}, isMissingEndpoint: looksLikeMissingEndpoint },
      );
      const current = found.transactions.find((t) => t.id === transactionId);
      if (current && current.status !== 'FAILED') {
        await audit(authz.actor, 'transaction.retry', 'refused', {
          target: transactionId,
          input: { walletId, transactionId, status: current.status },
        });
        return {
          ok: false,
          result: {
            ok: false,
            error: `Only failed transactions can be retried; this one is ${current.status}.`,
          },
        };
      }
    } catch (error) {
      const { message } = describeFailure(error, authz.actor.requestId, `retry transaction ${transactionId}`);
      return { ok: false, result: { ok: false, error: message } };
    }
    return {
      ok: true,
      actor: authz.actor,
      walletId,
      kind: 'retry',
      payload: { transactionId, addressId },
    };
  };
  return createOperationRequest(check, 'retry');
}
