'use server';
import { type Actor, defineAction, ok } from '@/lib/actions/define-action';
// Resending transactions' webhooks (#2): support and admin. Each resend is audited on its own, so a bulk
// resend leaves one entry per transaction.
import type { CustodyClient } from '@/lib/custody';
import { describeFailure } from '@/lib/server/errors';
import { audit } from '@/lib/server/guard';
import { failedDeliveriesSince, runPool } from '@/lib/server/webhooks';
import {
  MAX_BULK_RESEND,
  resendFailedSinceSchema,
  resendWebhookSchema,
  resendWebhooksSchema,
} from '@/lib/validation/custody-ids';

export interface ResendOutcome {
  transactionId: string;
  ok: boolean;
  /** What happened, in words: never the service's own message, which describes a fetch. */
  message: string;
}

/** Resends in flight at once during a bulk resend, to stay polite to the custody service. */
const BULK_CONCURRENCY = 4;

/**
 * The service answers #2 with the transaction and "Transaction fetched successfully", which says nothing
 * about the webhook; what a resend does is send it again as a new logged delivery.
 */
function resentMessage(transactionId: string): string {
  return `Webhook sent again for transaction ${transactionId}; the service logged a new delivery.`;
}

async function resendOne(
  actor: Actor,
  client: CustodyClient,
  walletId: string,
  transactionId: string,
): Promise<ResendOutcome> {
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
export const resendWebhookAction = defineAction({
  permission: 'webhook.resend',
  resource: 'webhooks',
  input: resendWebhookSchema,
  invalid: 'first-issue',
  context: 'resend webhook',
  run: async ({ actor, input: { walletId, transactionId }, custody }) => {
    const outcome = await resendOne(actor, await custody(walletId), walletId, transactionId);
    return outcome.ok ? ok(outcome) : { ok: false, error: outcome.message };
  },
});

/** Resends each transaction's webhook, four at a time, each audited; one outcome per transaction. */
async function resendAll(
  actor: Actor,
  client: CustodyClient,
  walletId: string,
  ids: string[],
): Promise<ResendOutcome[]> {
  const results = await runPool(ids, BULK_CONCURRENCY, (transactionId) =>
    resendOne(actor, client, walletId, transactionId),
  );
  return results.map((r, i) =>
    r.ok
      ? r.value
      : { transactionId: ids[i] ?? '', ok: false, message: 'Something went wrong on the server.' },
  );
}

/** Resends several transactions' webhooks, four at a time, each audited; the result lists every row. */
export const resendWebhooksAction = defineAction({
  permission: 'webhook.resend',
  resource: 'webhooks',
  input: resendWebhooksSchema,
  invalid: 'first-issue',
  context: 'bulk resend webhooks',
  run: async ({ actor, input: { walletId, transactionIds }, custody }) => {
    // Several failed deliveries may belong to one transaction: one resend each.
    const ids = [...new Set(transactionIds)];
    return ok<ResendOutcome[]>(await resendAll(actor, await custody(walletId), walletId, ids));
  },
});

export interface ResendSinceResult {
  /** Transactions whose delivery failed since the time and was not delivered later. */
  matching: number;
  /** How many are (or would be) resent: the newest, at most MAX_BULK_RESEND. */
  resent: number;
  /** The log was read up to its cap: older failures may be missing. */
  truncated: boolean;
  /** Filled when confirmed: one outcome per resent transaction. */
  outcomes: ResendOutcome[];
}

/**
 * Every delivery whose latest send failed since a time: `confirm: false` counts them (the preview), `confirm: true`
 * resends the newest, at most 100, once per transaction. The log is read again at confirmation, so a delivery
 * that succeeded in between is not sent twice.
 */
export const resendFailedSinceAction = defineAction({
  permission: 'webhook.resend',
  resource: 'webhooks',
  input: resendFailedSinceSchema,
  invalid: 'first-issue',
  context: 'resend failed webhooks since',
  run: async ({ actor, input: { walletId, since, confirm }, custody }) => {
    const client = await custody(walletId);
    const found = await failedDeliveriesSince(client, walletId, new Date(since));
    const ids = found.transactionIds.slice(0, MAX_BULK_RESEND);
    const outcomes = confirm ? await resendAll(actor, client, walletId, ids) : [];
    return ok<ResendSinceResult>({
      matching: found.transactionIds.length,
      resent: ids.length,
      truncated: found.truncated,
      outcomes,
    });
  },
});
