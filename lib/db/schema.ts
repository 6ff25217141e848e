// The console's own tables. The sandbox keeps its tables apart (lib/sandbox/db).
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
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

import type { Role } from '@/lib/roles';
import { addressBookEntries, addressBookPolicy } from './tables/address-book';
import { alertAttempts, alertChannels, alertOutbox } from './tables/alerts';
import {
  approvalPolicies,
  consoleSettings,
  notifications,
  operationApprovals,
  operationEvents,
  operationItems,
  operationRequests,
} from './tables/approvals';
import { userInvitations } from './tables/invitations';
import { spendingLimits } from './tables/limits';
import { payoutScheduleRuns, payoutSchedules } from './tables/payout-schedules';
import { accountProvenance } from './tables/provenance';
import { rateLimitWindows } from './tables/rate-limits';
import { authChallenges, userFactors, userSessions } from './tables/security';
import { serviceTokenIdempotency, serviceTokens } from './tables/service-tokens';
import { walletConnections } from './tables/wallets';
import { webhookEvents } from './tables/webhook-events';

export { ROLES, type Role } from '@/lib/roles';

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  role: text('role').$type<Role>().notNull(),
  passwordHash: text('password_hash').notNull(),
  mustChangePassword: boolean('must_change_password').notNull().default(false),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  /** Bumped on every change that must end existing sessions (role, disable, password). */
  sessionVersion: integer('session_version').notNull().default(1),
  /** The admin who created this user, and who last gave them their role: they never approve that admin's requests. */
  createdBy: uuid('created_by'),
  roleGrantedBy: uuid('role_granted_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Normalised email as typed, known account or not, so lockout never reveals which emails exist. */
    email: text('email').notNull(),
    succeeded: boolean('succeeded').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The sign-in's client address as the throttle counts it (lib/server/sign-in-throttle.ts: an IPv6 client by
     * its /64); null for attempts not made at sign-in (a step-up in a session) or from an unknown address.
     */
    clientAddress: text('client_address'),
  },
  (t) => [
    index('login_attempts_email_at').on(t.email, t.at),
    index('login_attempts_client_address_at').on(t.clientAddress, t.at),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true, mode: 'string' }).notNull(),
    actorId: text('actor_id'),
    actorEmail: text('actor_email').notNull(),
    role: text('role').notNull(),
    action: text('action').notNull(),
    target: text('target'),
    /** Redacted summary of the input; never a secret. */
    input: jsonb('input').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    outcome: text('outcome').notNull(),
    requestId: text('request_id'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    index('audit_log_action').on(t.action),
    index('audit_log_actor').on(t.actorEmail),
    index('audit_log_at').on(t.at),
    // Each entry is the previous entry of at most one: two writers chaining after the same entry cannot both
    // succeed, so the chain never forks (lib/server/audit.ts).
    uniqueIndex('audit_log_prev_hash').on(t.prevHash),
  ],
);

export * from './tables/address-book';
export * from './tables/alerts';
export * from './tables/approvals';
export * from './tables/invitations';
export * from './tables/limits';
export * from './tables/payout-schedules';
export * from './tables/provenance';
export * from './tables/rate-limits';
export * from './tables/security';
export * from './tables/service-tokens';
export * from './tables/wallets';
export * from './tables/webhook-events';

export const schema = {
  users,
  loginAttempts,
  auditLog,
  walletConnections,
  webhookEvents,
  operationRequests,
  operationApprovals,
  operationItems,
  operationEvents,
  approvalPolicies,
  consoleSettings,
  notifications,
  spendingLimits,
  userFactors,
  userSessions,
  authChallenges,
  alertChannels,
  alertOutbox,
  alertAttempts,
  addressBookEntries,
  addressBookPolicy,
  serviceTokens,
  serviceTokenIdempotency,
  payoutSchedules,
  payoutScheduleRuns,
  accountProvenance,
  userInvitations,
  rateLimitWindows,
};
export type ConsoleDb = PgDatabase<PgQueryResultHKT, typeof schema>;
export type UserRow = typeof users.$inferSelect;
export type AuditRow = typeof auditLog.$inferSelect;
