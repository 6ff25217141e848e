import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** Custody webhooks the receiver accepted, each stored once (the custody service retries and resends). */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** SHA-256 of the raw body: a redelivery of the same bytes is the same event. */
    dedupeKey: text('dedupe_key').notNull(),
    walletId: text('wallet_id').notNull(),
    event: text('event').notNull(),
    transactionId: text('transaction_id').notNull(),
    status: text('status').notNull(),
    type: text('type').notNull(),
    reference: text('reference').notNull(),
    /** The transaction as delivered, with wallet sub-objects cut down to id and name (no business secrets). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_events_dedupe_key').on(t.dedupeKey),
    index('webhook_events_wallet_received').on(t.walletId, t.receivedAt),
    index('webhook_events_transaction').on(t.transactionId),
  ],
);

export type WebhookEventRow = typeof webhookEvents.$inferSelect;
