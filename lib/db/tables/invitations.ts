// Links that let a person set their own password (and second factor): a new user's invitation, or a reset an
// admin asked for. The link goes only to the person's own mailbox; the console keeps its SHA-256, never the link.
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const userInvitations = pgTable(
  'user_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    /** `invitation` (a new account) or `reset` (an admin's reset of the password, and maybe the factors). */
    purpose: text('purpose').$type<InvitationPurpose>().notNull(),
    /** SHA-256 (hex) of the link's token. */
    tokenHash: text('token_hash').notNull().unique(),
    /** The address the link was sent to (the account's email at the time). */
    email: text('email').notNull(),
    /** The admin whose request or resend made this link; null for the console itself. */
    issuedBy: text('issued_by'),
    /** The approval request that carried the change, when one did. */
    requestId: uuid('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When the person used it (it works once). */
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** When a newer link for the same account replaced it. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Why the email may not have left (the mail server's refusal, in words safe to show); null when it left. */
    deliveryError: text('delivery_error'),
  },
  (t) => [index('user_invitations_user').on(t.userId, t.createdAt)],
);

export type InvitationPurpose = 'invitation' | 'reset';
export type UserInvitationRow = typeof userInvitations.$inferSelect;
