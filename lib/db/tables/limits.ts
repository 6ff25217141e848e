// Spending limits: rules over rolling windows that a request moving money is checked against at creation and
// again at its final approval (lib/server/approvals/limits.ts). Changed only through an approved request.
import { integer, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const spendingLimits = pgTable('spending_limits', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** The wallet the rule applies to; null: every wallet. */
  walletId: text('wallet_id'),
  /** `wallet`, `requester` or `destination`: whose spending adds up. */
  scope: text('scope').notNull(),
  windowHours: integer('window_hours').notNull(),
  /** `usd` or `asset`. */
  unit: text('unit').notNull(),
  /** The asset counted (`asset`), or the only asset counted (`usd`); null: every asset. */
  assetSymbol: text('asset_symbol'),
  limitAmount: numeric('limit_amount').notNull(),
  /** `approvals` (extraApprovals more) or `refuse`. */
  onBreach: text('on_breach').notNull(),
  extraApprovals: integer('extra_approvals').notNull().default(0),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type SpendingLimitRow = typeof spendingLimits.$inferSelect;
