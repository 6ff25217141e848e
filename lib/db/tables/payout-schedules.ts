// Scheduled payouts: recipients and amounts paid on a cadence (daily, weekly, monthly, or once on a date). The
// schedule is approved once, as a schedule; each run then creates an ordinary payout request that goes through
// the usual approvals, limits and freeze. A run is recorded once per due time, so two rounds or two console
// instances never create a run twice.
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const payoutSchedules = pgTable(
  'payout_schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    walletId: text('wallet_id').notNull(),
    name: text('name').notNull(),
    /** `master` or a child address id: where the payouts are paid from. */
    source: text('source').notNull(),
    /** `daily`, `weekly`, `monthly` or `once`. */
    cadence: text('cadence').notNull(),
    /** Weekly: 0 (Sunday) to 6. */
    dayOfWeek: integer('day_of_week'),
    /** Monthly: 1 to 28. */
    dayOfMonth: integer('day_of_month'),
    /** Time of day of each run, `HH:MM` UTC. */
    timeOfDay: text('time_of_day').notNull(),
    /** Once: the date (`YYYY-MM-DD`); other cadences: the first day a run may fall on. */
    startsOn: text('starts_on').notNull(),
    /** Recipients and amounts: [{ address, amount, asset, reference?, label? }]. */
    rows: jsonb('rows').$type<Array<Record<string, string>>>().notNull(),
    /** `active`, `paused` or `ended`. A schedule exists only once its request was approved. */
    status: text('status').notNull(),
    /** The approved request that made the schedule. */
    approvedRequestId: uuid('approved_request_id'),
    /** The person who asked for the schedule: each run's request is theirs, so they never approve it. */
    ownerId: uuid('owner_id').notNull(),
    ownerEmail: text('owner_email').notNull(),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payout_schedules_due').on(t.status, t.nextRunAt)],
);

export const payoutScheduleRuns = pgTable(
  'payout_schedule_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scheduleId: uuid('schedule_id')
      .notNull()
      .references(() => payoutSchedules.id),
    /** The run's due time: one run per schedule and due time. */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    /** The payout request the run created; null when it could not (the error says why). */
    operationRequestId: uuid('operation_request_id'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('payout_schedule_runs_once').on(t.scheduleId, t.dueAt)],
);

export type PayoutScheduleRow = typeof payoutSchedules.$inferSelect;
export type PayoutScheduleRunRow = typeof payoutScheduleRuns.$inferSelect;
