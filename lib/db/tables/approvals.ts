// Money-moving and signing operations waiting for (or past) four-eyes approval (DESIGN.md, "Money-moving and
// signing operations"): the requests, who approved or rejected, each upstream item, the timeline, the policy,
// the emergency freeze and the requester's in-app notifications.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const operationRequests = pgTable(
  'operation_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Operation type key of the registry (`withdraw`, `withdrawSign`, later `swap`, `contractWrite`...). */
    type: text('type').notNull(),
    status: text('status').notNull(),
    walletId: text('wallet_id').notNull(),
    /** Child address the operation acts from; null for the master wallet. */
    addressId: text('address_id'),
    /** The validated payload exactly as it will be sent (minus upstream references). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** SHA-256 of the canonical JSON of the payload at creation; checked again before every submission. */
    payloadHash: text('payload_hash').notNull(),
    /** The review every approver sees: built once at creation, never recomputed. */
    review: jsonb('review').$type<Record<string, unknown>>().notNull(),
    /** Short text for lists, e.g. "3 withdrawals, 125 USDC". */
    summary: text('summary').notNull(),
    amountUsd: numeric('amount_usd'),
    requiredApprovals: integer('required_approvals').notNull(),
    requesterId: text('requester_id').notNull(),
    requesterEmail: text('requester_email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    submitAttempts: integer('submit_attempts').notNull().default(0),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    /** Upstream message of the last failed submission, or the reason the console refused to submit. */
    lastError: text('last_error'),
    /** OUTCOME_UNKNOWN only: set when the reconciler confirmed no upstream record carries the references. */
    confirmedAbsentAt: timestamp('confirmed_absent_at', { withTimezone: true }),
    /** Follow-up of SUBMITTED / OUTCOME_UNKNOWN: rounds done, when the next is due (backoff), and when it parked. */
    followUpAttempts: integer('follow_up_attempts').notNull().default(0),
    nextFollowUpAt: timestamp('next_follow_up_at', { withTimezone: true }),
    /** Set when the follow-up gave up polling: the request then waits for a webhook or a person. */
    followUpParkedAt: timestamp('follow_up_parked_at', { withTimezone: true }),
    /** A round in progress (in any instance) holds the request until then: one lookup at a time. */
    followUpLeaseUntil: timestamp('follow_up_lease_until', { withTimezone: true }),
    /** When the service last answered a lookup that would have shown the request's transactions. */
    lastLookupAt: timestamp('last_lookup_at', { withTimezone: true }),
    /** DUPLICATE only: every upstream transaction seen per reference, [{ reference, transactions: [...] }]. */
    duplicates: jsonb('duplicates').$type<Array<Record<string, unknown>>>(),
    /** A manual resolution recorded by one person and waiting for a second ({ verdict, transactionId, ... }). */
    resolutionProposal: jsonb('resolution_proposal').$type<Record<string, unknown>>(),
    /** Type-specific outcome (e.g. decoded signed transactions of a sign-only withdrawal). */
    result: jsonb('result').$type<Record<string, unknown>>(),
    rejectReason: text('reject_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('operation_requests_status').on(t.status),
    index('operation_requests_requester').on(t.requesterId),
    index('operation_requests_created').on(t.createdAt),
  ],
);

export const operationApprovals = pgTable(
  'operation_approvals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => operationRequests.id),
    approverId: text('approver_id').notNull(),
    approverEmail: text('approver_email').notNull(),
    role: text('role').notNull(),
    /** `approve` or `reject`. */
    decision: text('decision').notNull(),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // One person counts once, whatever the number of clicks or concurrent calls.
  (t) => [uniqueIndex('operation_approvals_once').on(t.requestId, t.approverId)],
);

export const operationItems = pgTable(
  'operation_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => operationRequests.id),
    index: integer('index').notNull(),
    /** The request's wallet: references are unique per wallet. */
    walletId: text('wallet_id').notNull(),
    /**
     * Upstream reference: the requester's own when given, else derived from the request id. How an unknown
     * outcome is matched; unique per wallet among the console's requests.
     */
    reference: text('reference').notNull(),
    transactionId: text('transaction_id'),
    hash: text('hash'),
    /** Upstream transaction status: PENDING, SUCCESS, FAILED; null until submitted. */
    status: text('status'),
    confirmations: integer('confirmations'),
    error: text('error'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('operation_items_position').on(t.requestId, t.index),
    uniqueIndex('operation_items_wallet_reference').on(t.walletId, t.reference),
    index('operation_items_transaction').on(t.transactionId),
  ],
);

export const operationEvents = pgTable(
  'operation_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => operationRequests.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** requested, approved, rejected, cancelled, expired, submitting, submitted, submit_failed, ... */
    kind: text('kind').notNull(),
    actorEmail: text('actor_email'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [index('operation_events_request').on(t.requestId, t.id)],
);

export const approvalPolicies = pgTable('approval_policies', {
  operationType: text('operation_type').primaryKey(),
  /** Distinct approvers needed besides the requester; at least 1. */
  approvals: integer('approvals').notNull(),
  /** Above this USD amount one more approver is needed; null means no threshold. */
  thresholdUsd: numeric('threshold_usd'),
  expirySeconds: integer('expiry_seconds').notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Console-wide switches; `freeze` stops every submission upstream. */
export const consoleSettings = pgTable('console_settings', {
  key: text('key').primaryKey(),
  enabled: boolean('enabled').notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id').notNull(),
    requestId: uuid('request_id').references(() => operationRequests.id),
    message: text('message').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notifications_user').on(t.userId, t.createdAt)],
);

export type OperationRequestRow = typeof operationRequests.$inferSelect;
export type OperationApprovalRow = typeof operationApprovals.$inferSelect;
export type OperationItemRow = typeof operationItems.$inferSelect;
export type OperationEventRow = typeof operationEvents.$inferSelect;
export type ApprovalPolicyRow = typeof approvalPolicies.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;
