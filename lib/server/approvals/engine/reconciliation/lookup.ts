import 'server-only';
// Looking a request's items up by reference: what the service shows is written on the items, and two
// transactions with one reference put the request in DUPLICATE.
import { eq } from 'drizzle-orm';
import type { CustodyClient } from '@/lib/custody';
import { type OperationItemRow, type OperationRequestRow, operationItems } from '@/lib/db/schema';
import { type FoundTransaction, type LookupResult, lookUpTransactions } from '../../lookup';
import { operationType } from '../../operations/registry';
import type { SubmitOutcome } from '../../operations/types';
import { sourcesOf } from '../../states';
import type { EngineContext } from '../context';
import { finish } from '../submission/record';
import { SYSTEM_ACTOR } from '../types';

export async function lookUp(
  ctx: EngineContext,
  row: OperationRequestRow,
  item: OperationItemRow,
  client: CustodyClient,
) {
  const { capabilities } = ctx;
  const missing = await capabilities.missing(row.walletId);
  return lookUpTransactions(
    client,
    {
      walletId: row.walletId,
      addressId: row.addressId,
      reference: item.reference,
      transactionId: item.transactionId,
    },
    {
      missing,
      onMissing: (name) => capabilities.markMissing(row.walletId, name),
      isMissingEndpoint: capabilities.isMissingEndpoint,
    },
  );
}

/** Writes what the service says of one item's transaction; true when something changed. */
export async function applyTransaction(
  ctx: EngineContext,
  requestId: string,
  item: OperationItemRow,
  tx: Pick<FoundTransaction, 'id' | 'status' | 'hash' | 'confirmations'>,
): Promise<boolean> {
  const { db, now, event } = ctx;
  const changes: Partial<typeof operationItems.$inferInsert> = {};
  if (tx.hash && tx.hash !== item.hash) changes.hash = tx.hash;
  if (tx.confirmations !== null && tx.confirmations !== item.confirmations)
    changes.confirmations = tx.confirmations;
  if (tx.status !== item.status) changes.status = tx.status;
  if (!item.transactionId) changes.transactionId = tx.id;
  if (Object.keys(changes).length === 0) return false;
  const updated = await db
    .update(operationItems)
    .set({ ...changes, updatedAt: now() })
    .where(eq(operationItems.id, item.id))
    .returning({ id: operationItems.id });
  if (updated.length === 0) return false;
  if (changes.hash) await event(requestId, 'hash', null, { index: item.index, hash: tx.hash });
  if (changes.confirmations !== undefined && tx.confirmations)
    await event(requestId, 'confirmations', null, { index: item.index, confirmations: tx.confirmations });
  if (changes.status && tx.status !== 'PENDING')
    await event(requestId, tx.status === 'SUCCESS' ? 'item_succeeded' : 'item_failed', null, {
      index: item.index,
      hash: tx.hash,
    });
  return true;
}

/** SUBMITTED ends when every item settled upstream. */
export async function finishIfSettled(ctx: EngineContext, row: OperationRequestRow) {
  const { itemsOf } = ctx;
  const after = await itemsOf(row.id);
  if (after.every((i) => i.status === 'SUCCESS' || i.status === 'FAILED')) {
    await finish(ctx, row, after.every((i) => i.status === 'SUCCESS') ? 'SUCCESS' : 'FAILED');
  }
}

/**
 * Two upstream transactions carry one request's reference: the request leaves every other state for
 * DUPLICATE, is shown, notified and audited. Never one Success for two payments.
 */
export async function markDuplicate(
  ctx: EngineContext,
  row: OperationRequestRow,
  reference: string,
  txs: FoundTransaction[],
) {
  const { audit, event, transition, notifyApprovers, alerts } = ctx;
  const duplicates = [
    {
      reference,
      transactions: txs.map((t) => ({
        id: t.id,
        status: t.status,
        hash: t.hash,
        createdAt: t.createdAt,
      })),
    },
  ];
  const moved = await transition(row.id, sourcesOf('DUPLICATE'), 'DUPLICATE', {
    duplicates,
    nextFollowUpAt: null,
    followUpParkedAt: null,
  });
  if (!moved) return;
  await event(row.id, 'duplicate_detected', null, { reference, transactions: txs.map((t) => t.id) });
  await audit(SYSTEM_ACTOR, `${row.type}.duplicate`, 'detected', row.id, {
    reference,
    transactions: txs.map((t) => t.id),
  });
  await notifyApprovers(
    row,
    `Duplicate: ${txs.length} upstream transactions carry reference ${reference} of one request (${row.summary}). Check both and recover the extra payment.`,
  );
  await alerts.requestDuplicate(row, reference, txs.length);
}

/** Groups what lookups found by reference; more than one transaction for a reference is a duplicate. */
export function duplicateOf(found: FoundTransaction[]): boolean {
  return new Set(found.map((t) => t.id)).size > 1;
}

/**
 * Looks every item of a request up: what shows it executed is collected for linking; two transactions
 * with one reference put the request in DUPLICATE at once.
 */
export async function lookUpItems(
  ctx: EngineContext,
  row: OperationRequestRow,
  items: OperationItemRow[],
  client: CustodyClient,
) {
  const type = operationType(row.type);
  const found: SubmitOutcome['items'] = [];
  const checked: LookupResult[] = [];
  for (const item of items) {
    const result = await lookUp(ctx, row, item, client);
    if (duplicateOf(result.transactions)) {
      await markDuplicate(ctx, row, item.reference, result.transactions);
      return { duplicate: true as const, found, checked };
    }
    checked.push(result);
    const tx = result.transactions.find((t) => type?.executed(t) ?? true);
    if (tx)
      found.push({
        index: item.index,
        transactionId: tx.id,
        hash: tx.hash,
        status: tx.status,
        confirmations: tx.confirmations,
      });
  }
  return { duplicate: false as const, found, checked };
}
