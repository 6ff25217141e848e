import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * Where a person receives alerts outside the console: one email address and one chat webhook at most, each with
 * the events it receives. A chat webhook's URL carries its own secret, so it is sealed with the console's
 * encryption key (associated data = the row's user id and kind) and shown by its host and last characters.
 */
export const alertChannels = pgTable(
  'alert_channels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    kind: text('kind').$type<'email' | 'chat'>().notNull(),
    /** Email: the address. Chat: the webhook URL, sealed. */
    target: text('target').notNull(),
    /** What the person sees of the target: the address, or the webhook's host and last four characters. */
    targetHint: text('target_hint').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('alert_channels_user_kind').on(t.userId, t.kind)],
);

/**
 * The outbox: one row per alert and channel, written in the flow that caused it and delivered by the background
 * worker with retries. `dedupeKey` makes an alert once per cause (one request, one failure streak).
 */
export const alertOutbox = pgTable(
  'alert_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    /** `system`: a request state change posted to an API token's webhook (userId is then the token's id). */
    channel: text('channel').$type<'email' | 'chat' | 'system'>().notNull(),
    event: text('event').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    /** The absolute address of the page the alert is about. */
    link: text('link').notNull(),
    status: text('status').$type<'pending' | 'sent' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the worker may take it next (also the lease of a try in progress). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('alert_outbox_once').on(t.userId, t.channel, t.dedupeKey),
    index('alert_outbox_due').on(t.status, t.nextAttemptAt),
    index('alert_outbox_user').on(t.userId, t.createdAt),
  ],
);

/** Every delivery try of an outbox row: when, whether it went through, and a short reason (never a secret). */
export const alertAttempts = pgTable(
  'alert_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    outboxId: uuid('outbox_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    ok: boolean('ok').notNull(),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [index('alert_attempts_outbox').on(t.outboxId)],
);

export type AlertChannelRow = typeof alertChannels.$inferSelect;
export type AlertOutboxRow = typeof alertOutbox.$inferSelect;
