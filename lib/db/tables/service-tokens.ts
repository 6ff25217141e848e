// Service tokens: how a business's own systems (payroll, a back office) use the console's API (`/api/v1`).
// A token is created and rotated through a second admin's approval, stored as a SHA-256 hash (the secret is
// shown once to the requesting admin), and its money-moving calls become approval requests with the token as
// requester. Idempotency keys make a repeated call create one request.
import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

export const serviceTokens = pgTable(
  'service_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** SHA-256 (hex) of the secret part of the token; the secret itself is never stored. */
    secretHash: text('secret_hash').notNull(),
    /** The token's first characters (`cct_ab12…`), so people can tell tokens apart. */
    prefix: text('prefix').notNull(),
    /** What the token may do: `read`, `withdrawals:request`, `swaps:request`. */
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    /** Wallet ids the token may act on. */
    walletIds: jsonb('wallet_ids').$type<string[]>().notNull(),
    /** USD the token's requests may add up to over 24 hours (rejected, cancelled and expired ones do not count). */
    dailyCapUsd: numeric('daily_cap_usd').notNull(),
    /**
     * Approvals each of the token's requests needs at least (the policy's count applies when higher): a system
     * has no second person behind it, so two people approve by default.
     */
    minApprovals: integer('min_approvals').notNull().default(2),
    /** Networks calls may come from (CIDR); empty: any. */
    allowedCidrs: jsonb('allowed_cidrs').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** Calls per minute before 429 with Retry-After. */
    rateLimitPerMinute: integer('rate_limit_per_minute').notNull().default(60),
    /** Where request state changes are posted, signed with the webhook secret; null: polling only. */
    webhookUrl: text('webhook_url'),
    /** The webhook signing secret, sealed with the console's key (it must be read to sign). */
    webhookSecretSealed: text('webhook_secret_sealed'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The admin who asked for the token. */
    createdBy: uuid('created_by').notNull(),
    createdByEmail: text('created_by_email').notNull(),
    /** Everyone shown a secret of this token (its creation, each rotation): they never approve its requests. */
    secretSeenBy: jsonb('secret_seen_by').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    approvedBy: text('approved_by'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: text('revoked_by'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('service_tokens_prefix').on(t.prefix)],
);

/**
 * One row per token and Idempotency-Key: the request a money-moving call created (its id is chosen before the
 * request is inserted, so a retry after a lost answer finds it) and the hash of the body it was made with.
 */
export const serviceTokenIdempotency = pgTable(
  'service_token_idempotency',
  {
    tokenId: uuid('token_id').notNull(),
    key: text('key').notNull(),
    bodyHash: text('body_hash').notNull(),
    operationRequestId: uuid('operation_request_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.key] })],
);

export type ServiceTokenRow = typeof serviceTokens.$inferSelect;
