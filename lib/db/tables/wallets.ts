import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The console's own list of wallets (the custody API cannot list them), with each wallet's API key sealed. */
export const walletConnections = pgTable('wallet_connections', {
  /** The custody service's wallet id. */
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  blockchain: text('blockchain').notNull(),
  network: text('network').notNull(),
  address: text('address').notNull(),
  /** AES-256-GCM, associated data = wallet id. */
  apiKeySealed: text('api_key_sealed').notNull(),
  apiKeyLast4: text('api_key_last4').notNull(),
  /** After a rotation the previous key still verifies webhooks for a while. */
  previousApiKeySealed: text('previous_api_key_sealed'),
  previousKeyValidUntil: timestamp('previous_key_valid_until', { withTimezone: true }),
  /**
   * Which extension endpoints (beyond the spec's 23) this service answers, by capability name; probed at
   * connect and again periodically. Null until the first probe.
   */
  capabilities: jsonb('capabilities').$type<Record<string, boolean>>(),
  capabilitiesCheckedAt: timestamp('capabilities_checked_at', { withTimezone: true }),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type WalletConnectionRow = typeof walletConnections.$inferSelect;
