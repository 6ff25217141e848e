// Where each account came from: who asked for it, who approved it, who set or reset its password or factors,
// who changed its role or enabled it. Rows are only ever added. The four-eyes rules read it: the people who
// control an account are the transitive closure of the controlling rows (lib/server/approvals/independence.ts).
import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const accountProvenance = pgTable(
  'account_provenance',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The account the row is about: a user id. */
    subject: text('subject').notNull(),
    /** The person who acted on it: a user id. */
    actor: text('actor').notNull(),
    /**
     * `requested` (asked for the account), `approved` (approved that request), `credential` (set or was shown
     * its password), `factor` (set or reset its second factor), `role` (asked for its role), `enabled` (asked for
     * it to sign in again), `reset` (asked for a reset link: it goes to the account's own mailbox, so the asker never
     * holds the credential).
     */
    kind: text('kind').$type<ProvenanceKind>().notNull(),
    /** The approval request that carried the change, when one did. */
    requestId: uuid('request_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_provenance_subject').on(t.subject)],
);

export type ProvenanceKind =
  | 'requested'
  | 'approved'
  | 'credential'
  | 'factor'
  | 'role'
  | 'enabled'
  | 'reset';
export type AccountProvenanceRow = typeof accountProvenance.$inferSelect;
