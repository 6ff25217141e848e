'use server';
import { z } from 'zod';
import { describeFailure } from '@/lib/server/errors';
import { type ActionResult, type Actor, audit, authorize } from '@/lib/server/guard';
import { custodyFor } from '@/lib/server/wallets';
import { runPool } from '@/lib/server/webhooks';

const id = z
  .string()
  .trim()
  .min(1, 'Missing id')
  .max(100)
  .regex(/^[\w-]+$/, 'Not a valid id');

const resendSchema = z.object({ walletId: id, transactionId: id });
/** A bulk resend is bounded: a page of the log at most. */
const MAX_BULK = 100;
const bulkResendSchema = z.object({
  walletId: id,
  transactionIds: z
    .array(id)
    .min(1, 'Select at least one delivery')
    .max(MAX_BULK, `Select at most ${MAX_BULK} deliveries`),
});
/** Resends in flight at once during a bulk resend, to stay polite to the custody service. */
const BULK_CONCURRENCY = 4;

export interface ResendOutcome {
  transactionId: string;
  ok: boolean;
  /** What happened, in words: never the service's own message, which describes a fetch. */
  message: string;
}

/**
 * The service answers #2 with the transaction and "Transaction fetched successfully", which says nothing
 * about the webhook; what a resend does is send it again as a new logged delivery.
 */
function resentMessage(transactionId: string): string {
  return `Webhook sent again for transaction ${transactionId}; the service logged a new delivery.`;
}

async function resendOne(actor: Actor, walletId: string, transactionId: string): Promise<ResendOutcome> {
  const client = await custodyFor(walletId);
  if (!client) return { transactionId, ok: false, message: 'This wallet is not connected to the console.' };
  try {
    await client.transactions.resendWebhook({ walletId, id: transactionId });
    await audit(actor, 'webhook.resend', 'success', {
      target: transactionId,
      input: { walletId, transactionId },
    });
    return { transactionId, ok: true, message: resentMessage(transactionId) };
  } catch (error) {
    const { message } = describeFailure(error, actor.requestId, `resend webhook ${transactionId}`);
    await audit(actor, 'webhook.resend', 'failed', {
      target: transactionId,
      input: { walletId, transactionId, error: message },
    });
    return { transactionId, ok: false, message };
  }
}

/** #2: the custody service sends the transaction's webhook again; the log shows it as a new entry. */
export async function resendWebhookAction(input: unknown): Promise<ActionResult<ResendOutcome>> {
  const authz = await authorize('webhook.resend', 'webhooks');
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  const parsed = resendSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? 'Invalid input' };
  const outcome = await resendOne(authz.actor, parsed.data.walletId, parsed.data.transactionId);
  return outcome.ok ? { ok: true, data: outcome } : { ok: false, error: outcome.message };
}

/** Resends several transactions' webhooks, four at a time, each audited; the result lists every row. */
export async function resendWebhooksAction(input: unknown): Promise<ActionResult<ResendOutcome[]>> {
  const authz = await authorize('webhook.resend', 'webhooks');
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  const parsed = bulkResendSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? 'Invalid input' };
  const { walletId } = parsed.data;
  // Several failed deliveries may belong to one transaction: one resend each.
  const ids = [...new Set(parsed.data.transactionIds)];
  const results = await runPool(ids, BULK_CONCURRENCY, (transactionId) =>
    resendOne(authz.actor, walletId, transactionId),
  );
  return {
    ok: true,
    data: results.map((r, i) =>
      r.ok
        ? r.value
        : { transactionId: ids[i] ?? '', ok: false, message: 'Something went wrong on the server.' },
    ),
  };
}
