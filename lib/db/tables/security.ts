import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * A person's second factors: authenticator apps (TOTP) and passkeys (WebAuthn). Secrets are sealed with the
 * console's encryption key (AES-256-GCM, associated data = factor id); a passkey stores only its public key.
 */
export const userFactors = pgTable(
  'user_factors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    kind: text('kind').$type<'totp' | 'passkey'>().notNull(),
    /** What the person called it ("Work laptop", "Phone app"). */
    label: text('label').notNull(),
    /** TOTP: the shared secret, sealed. */
    secretSealed: text('secret_sealed'),
    /** Passkey: the credential id (base64url), its public key (base64url, COSE) and signature counter. */
    credentialId: text('credential_id').unique(),
    publicKey: text('public_key'),
    counter: bigint('counter', { mode: 'number' }),
    transports: jsonb('transports').$type<string[]>(),
    /** TOTP: the last accepted time step, so one code is never accepted twice. */
    lastStep: bigint('last_step', { mode: 'number' }),
    /** Null until the person proved the factor once (a TOTP code, a passkey assertion). */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_factors_user').on(t.userId)],
);

/**
 * Every signed-in session, on the server: the session token carries only this row's id, so ending the row
 * (sign-out, disable, role or password change, "end session" from the list) ends the session at once.
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** When this session last proved a second factor (sign-in or step-up). */
    stepUpAt: timestamp('step_up_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** sign-out, ended-by-user, ended-by-admin, disabled, role-changed, password-changed, expired. */
    endedReason: text('ended_reason'),
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
  },
  (t) => [index('user_sessions_user').on(t.userId)],
);

/**
 * One-time WebAuthn challenges (registration, sign-in, step-up), consumed on use and valid for minutes.
 * `subject` is a user id, or a pending sign-in's id before a session exists. A `decision` row is a proved second
 * factor waiting for the one decision it is bound to: `challenge` holds the session it was proved in.
 */
export const authChallenges = pgTable(
  'auth_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subject: text('subject').notNull(),
    purpose: text('purpose').$type<'register' | 'sign-in' | 'step-up' | 'decision'>().notNull(),
    challenge: text('challenge').notNull(),
    /** Step-up: the hash of the payload the check is bound to. */
    payloadHash: text('payload_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_challenges_subject').on(t.subject)],
);

export type UserFactorRow = typeof userFactors.$inferSelect;
export type UserSessionRow = typeof userSessions.$inferSelect;
export type AuthChallengeRow = typeof authChallenges.$inferSelect;
