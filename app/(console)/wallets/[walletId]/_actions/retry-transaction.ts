'use server';
import { z } from 'zod';
import { describeFailure } from '@/lib/server/errors';
import { type ActionResult, audit, authorize } from '@/lib/server/guard';
import { custodyFor } from '@/lib/server/wallets';
import { transactionOutcome } from '@/lib/server/webhooks';

const id = z
  .string()
  .trim()
  .min(1, 'Missing id')
  .max(100)
  .regex(/^[\w-]+$/, 'Not a valid id');
const retrySchema = z.object({ walletId: id, transactionId: id });

export type RetryTransactionResult = ReturnType<typeof transactionOutcome>;

/**
 * #1: retries a FAILED transaction. The status is read from the custody service first: the button may be
 * stale, and retrying anything but a failure would send money twice.
 */
export async function retryTransactionAction(input: unknown): Promise<ActionResult<RetryTransactionResult>> {
  const authz = await authorize('transaction.retry', 'transactions');
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  const parsed = retrySchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? 'Invalid input' };
  const { walletId, transactionId } = parsed.data;
  const client = await custodyFor(walletId);
  if (!client) return { ok: false, error: 'This wallet is not connected to the console.' };
  const auditInput = { walletId, transactionId };
  try {
    const current = await client.wallets.getTransaction({ walletId, id: transactionId });
    if (current.data.status !== 'FAILED') {
      await audit(authz.actor, 'transaction.retry', 'refused', {
        target: transactionId,
        input: { ...auditInput, status: current.data.status },
      });
      return {
        ok: false,
        error: `Only failed transactions can be retried; this one is ${current.data.status}.`,
      };
    }
    const res = await client.transactions.retry({ walletId, id: transactionId });
    await audit(authz.actor, 'transaction.retry', 'success', { target: transactionId, input: auditInput });
    return { ok: true, data: transactionOutcome(res.data) };
  } catch (error) {
    const { message } = describeFailure(error, authz.actor.requestId, `retry transaction ${transactionId}`);
    await audit(authz.actor, 'transaction.retry', 'failed', {
      target: transactionId,
      input: { ...auditInput, error: message },
    });
    return { ok: false, error: message };
  }
}
