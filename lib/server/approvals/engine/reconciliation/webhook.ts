import 'server-only';
// Verified webhook events: a transaction linked to the request that sent its reference, and settled from it.
import { and, eq, or, sql } from 'drizzle-orm';
import { type OperationItemRow, operationItems, operationRequests, webhookEvents } from '@/lib/db/schema';
import type { FoundTransaction } from '../../lookup';
import { operationType } from '../../operations/registry';
import type { EngineContext } from '../context';
import { recordSubmitted } from '../submission/record';
import { SYSTEM_ACTOR } from '../types';
import { applyTransaction, finishIfSettled, markDuplicate } from './lookup';

/**
 * A verified webhook's transaction (reference, id, status; the payload was stored by the receiver): links
 * it to the request that sent the reference, settles items from it, and catches a second transaction with
 * one reference. This alone follows a request on a service without the lookup extensions.
 */
export async function onTransactionEvent(
  ctx: EngineContext,
  webhook: {
    /** The stored webhook (webhook_events.id): its payload carries the hash and confirmations. */
    id?: string;
    walletId: string;
    transactionId: string;
    reference?: string;
    status?: string;
    type?: string;
    hash?: string | null;
  },
) {
  const { db } = ctx;
  if (webhook.type === 'DEPOSIT') return;
  const stored =
    webhook.id && /^[0-9a-f-]{36}$/i.test(webhook.id)
      ? (
          await db
            .select({ payload: webhookEvents.payload })
            .from(webhookEvents)
            .where(eq(webhookEvents.id, webhook.id))
            .limit(1)
        )[0]?.payload
      : undefined;
  const payload = (stored ?? {}) as { hash?: unknown; confirmations?: unknown };
  const matched = await db
    .select()
    .from(operationItems)
    .where(
      and(
        eq(operationItems.walletId, webhook.walletId),
        or(
          eq(operationItems.transactionId, webhook.transactionId),
          webhook.reference ? eq(operationItems.reference, webhook.reference) : sql`false`,
        ),
      ),
    );
  const tx: FoundTransaction = {
    id: webhook.transactionId,
    reference: webhook.reference ?? null,
    status: webhook.status ?? 'PENDING',
    type: webhook.type ?? null,
    hash: webhook.hash ?? (typeof payload.hash === 'string' ? payload.hash : null),
    confirmations: typeof payload.confirmations === 'number' ? payload.confirmations : null,
    createdAt: null,
    amount: null,
    symbol: null,
    recipientAddress: null,
  };
  for (const item of matched) await applyWebhook(ctx, item, tx);
}

async function applyWebhook(ctx: EngineContext, item: OperationItemRow, tx: FoundTransaction) {
  const { db, now, event, findRequest } = ctx;
  const row = await findRequest(item.requestId);
  if (!row) return;
  if (item.transactionId && item.transactionId !== tx.id && tx.reference === item.reference) {
    const known: FoundTransaction = {
      id: item.transactionId,
      reference: item.reference,
      status: item.status ?? 'PENDING',
      type: null,
      hash: item.hash,
      confirmations: item.confirmations,
      createdAt: null,
      amount: null,
      symbol: null,
      recipientAddress: null,
    };
    await markDuplicate(ctx, row, item.reference, [known, tx]);
    return;
  }
  if (row.status === 'OUTCOME_UNKNOWN') {
    if (!(operationType(row.type)?.executed(tx) ?? true)) return;
    if (operationType(row.type)?.inDoubt) {
      // A kind sent in several calls goes on from its next round, which links this and sends the rest.
      await db
        .update(operationRequests)
        .set({ nextFollowUpAt: now(), followUpParkedAt: null })
        .where(and(eq(operationRequests.id, row.id), eq(operationRequests.status, 'OUTCOME_UNKNOWN')));
      return;
    }
    await event(row.id, 'reconciled', null, { found: 1, via: 'webhook' });
    await recordSubmitted(
      ctx,
      row,
      { items: [{ index: item.index, transactionId: tx.id, hash: tx.hash, status: tx.status }] },
      SYSTEM_ACTOR,
      'OUTCOME_UNKNOWN',
    );
  }
  const current = await findRequest(row.id);
  if (current?.status !== 'SUBMITTED') return;
  const [fresh] = await db.select().from(operationItems).where(eq(operationItems.id, item.id));
  if (fresh && (await applyTransaction(ctx, row.id, fresh, tx))) {
    await db
      .update(operationRequests)
      .set({ followUpAttempts: 0, followUpParkedAt: null, nextFollowUpAt: now() })
      .where(and(eq(operationRequests.id, row.id), eq(operationRequests.status, 'SUBMITTED')));
  }
  await finishIfSettled(ctx, current);
}
