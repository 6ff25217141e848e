// The console's own address book entries (per wallet) and the cooling-off period a new entry waits before it
// can receive money. The service's beneficiaries and whitelisted addresses are read from the service, not here.
import { boolean, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const addressBookEntries = pgTable(
  'address_book_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    walletId: text('wallet_id').notNull(),
    name: text('name').notNull(),
    /** As entered (checksummed on EVM chains). */
    address: text('address').notNull(),
    /** Lowercased address: one entry per address and wallet. */
    addressKey: text('address_key').notNull(),
    chain: text('chain').notNull(),
    tags: jsonb('tags').$type<string[]>().notNull(),
    notes: text('notes').notNull().default(''),
    /** When the entry's current address was approved: the cooling-off period runs from here. */
    addressSince: timestamp('address_since', { withTimezone: true }).notNull(),
    /** The approval request that added or last changed the entry, its requester and its approvers. */
    requestId: uuid('request_id').notNull(),
    requestedBy: text('requested_by').notNull(),
    approvedBy: jsonb('approved_by').$type<string[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('address_book_entries_wallet_address').on(t.walletId, t.addressKey)],
);

/**
 * One row (`id` = `default`) once an admin changed the address book policy; the defaults apply until then: the
 * cooling-off, and the destination policy (money goes only to console entries past their cooling-off), on.
 */
export const addressBookPolicy = pgTable('address_book_policy', {
  id: text('id').primaryKey(),
  coolingOffSeconds: integer('cooling_off_seconds').notNull(),
  destinationPolicy: boolean('destination_policy').notNull().default(true),
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type AddressBookEntryRow = typeof addressBookEntries.$inferSelect;
