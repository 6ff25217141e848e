import 'server-only';
// Invitation and reset links: a token of 256 random bits goes into the link sent to the person's own mailbox;
// the console keeps only its SHA-256. A link works once, until it expires, while its account is enabled, and only
// until a newer link for the same account replaces it (or the account is disabled: enabling it revives no link).
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import {
  type ConsoleDb,
  type InvitationPurpose,
  type UserInvitationRow,
  type UserRow,
  userInvitations,
  users,
} from '@/lib/db/schema';
import { confirmedFactorKinds, requiresSecondFactor } from '../factors/store';
import { verifyTotp } from '../factors/totp';
import { findUserById, setPasswordFromInvitation } from '../users';

/** How long a link works after it is sent. */
export const INVITATION_TTL_MS = 72 * 60 * 60 * 1000;

/** The token as the link carries it: 32 bytes in base64url. */
const INVITATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface IssuedInvitation {
  id: string;
  /** Goes into the email and nowhere else. */
  token: string;
  expiresAt: Date;
}

/** A new link for the account; every earlier link of it still open stops working. */
export async function issueInvitation(
  db: ConsoleDb,
  input: {
    user: { id: string; email: string };
    purpose: InvitationPurpose;
    issuedBy: string | null;
    requestId?: string | null;
    now?: Date;
    ttlMs?: number;
  },
): Promise<IssuedInvitation> {
  const now = input.now ?? new Date();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + (input.ttlMs ?? INVITATION_TTL_MS));
  const id = await db.transaction(async (tx) => {
    await tx
      .update(userInvitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(userInvitations.userId, input.user.id),
          isNull(userInvitations.usedAt),
          isNull(userInvitations.revokedAt),
        ),
      );
    const [row] = await tx
      .insert(userInvitations)
      .values({
        userId: input.user.id,
        purpose: input.purpose,
        tokenHash: hashInvitationToken(token),
        email: input.user.email,
        issuedBy: input.issuedBy,
        requestId: input.requestId ?? null,
        createdAt: now,
        expiresAt,
      })
      .returning({ id: userInvitations.id });
    return row!.id;
  });
  return { id, token, expiresAt };
}

/** The mail server refused or could not be reached: kept so the admins' pages can say so. */
export async function recordDeliveryError(db: ConsoleDb, invitationId: string, reason: string) {
  await db.update(userInvitations).set({ deliveryError: reason }).where(eq(userInvitations.id, invitationId));
}

export type InvitationRefusal = 'unknown' | 'used' | 'disabled' | 'replaced' | 'expired';

export type InvitationCheck =
  | {
      ok: true;
      invitation: UserInvitationRow;
      user: UserRow;
      /** The person must enrol an authenticator app at the link: their role approves and they have no factor. */
      needsFactor: boolean;
    }
  | { ok: false; reason: InvitationRefusal; expiresAt?: Date };

/** Whether the link of `token` can be used now, and by whom. */
export async function checkInvitation(
  db: ConsoleDb,
  token: string,
  now = new Date(),
): Promise<InvitationCheck> {
  if (!INVITATION_TOKEN_PATTERN.test(token)) return { ok: false, reason: 'unknown' };
  const [invitation] = await db
    .select()
    .from(userInvitations)
    .where(eq(userInvitations.tokenHash, hashInvitationToken(token)))
    .limit(1);
  if (!invitation) return { ok: false, reason: 'unknown' };
  if (invitation.usedAt) return { ok: false, reason: 'used' };
  const user = await findUserById(db, invitation.userId);
  if (!user || user.disabledAt) return { ok: false, reason: 'disabled' };
  if (invitation.revokedAt) return { ok: false, reason: 'replaced' };
  if (invitation.expiresAt <= now) return { ok: false, reason: 'expired', expiresAt: invitation.expiresAt };
  const needsFactor = requiresSecondFactor(user.role) && (await confirmedFactorKinds(db, user.id)).size === 0;
  return { ok: true, invitation, user, needsFactor };
}

const when = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** What the person reads when their link cannot be used. */
export function invitationRefusalSentence(refusal: { reason: InvitationRefusal; expiresAt?: Date }): string {
  switch (refusal.reason) {
    case 'unknown':
      return 'This link is not valid. Open the whole link from your email, or ask an admin to send the invitation again.';
    case 'used':
      return 'This link was already used: it works once. Sign in with the password you chose, or ask an admin for a reset link.';
    case 'disabled':
      return 'This account is disabled, so its link no longer works. Ask an admin.';
    case 'replaced':
      return 'This link no longer works: a newer one was sent, or the account was disabled since. Use the latest email, or ask an admin to send the invitation again.';
    case 'expired':
      return `This link expired${refusal.expiresAt ? ` on ${when(refusal.expiresAt)}` : ''}. Ask an admin to send the invitation again.`;
  }
}

class AcceptRefused extends Error {
  constructor(readonly reason: InvitationRefusal | 'code') {
    super(reason);
  }
}

export type AcceptOutcome =
  | { ok: true; user: UserRow; purpose: InvitationPurpose; factorEnrolled: boolean }
  | { ok: false; reason: InvitationRefusal | 'code' | 'factor-missing'; expiresAt?: Date };

/**
 * Uses the link: sets the password the person chose and, when their role needs a second factor they do not have,
 * confirms the authenticator app they enrolled at the link with its code. One transaction: the link is taken by a
 * conditional update (two tabs cannot both use it) and a wrong code leaves it unused. Ends the account's sessions.
 */
export async function acceptInvitation(
  db: ConsoleDb,
  key: Buffer,
  input: { token: string; passwordHash: string; factor?: { factorId: string; code: string }; now?: Date },
): Promise<AcceptOutcome> {
  const now = input.now ?? new Date();
  const check = await checkInvitation(db, input.token, now);
  if (!check.ok) return check;
  const { invitation, needsFactor } = check;
  if (needsFactor && !input.factor) return { ok: false, reason: 'factor-missing' };
  try {
    const user = await db.transaction(async (tx) => {
      const [taken] = await tx
        .update(userInvitations)
        .set({ usedAt: now })
        .where(
          and(
            eq(userInvitations.id, invitation.id),
            isNull(userInvitations.usedAt),
            isNull(userInvitations.revokedAt),
            gt(userInvitations.expiresAt, now),
          ),
        )
        .returning({ id: userInvitations.id });
      if (!taken) throw new AcceptRefused('used');
      const [owner] = await tx.select().from(users).where(eq(users.id, invitation.userId)).for('update');
      if (!owner || owner.disabledAt) throw new AcceptRefused('disabled');
      if (needsFactor && input.factor) {
        const confirmed = await verifyTotp(tx as unknown as ConsoleDb, key, owner.id, input.factor.code, {
          factorId: input.factor.factorId,
          now: now.getTime(),
        });
        if (!confirmed) throw new AcceptRefused('code');
      }
      const updated = await setPasswordFromInvitation(
        tx as unknown as ConsoleDb,
        owner.id,
        input.passwordHash,
      );
      if (!updated) throw new AcceptRefused('disabled');
      return updated;
    });
    return { ok: true, user, purpose: invitation.purpose, factorEnrolled: needsFactor };
  } catch (error) {
    if (!(error instanceof AcceptRefused)) throw error;
    if (error.reason === 'code') return { ok: false, reason: 'code' };
    // Someone else took the link meanwhile, or the account changed: say what holds now.
    const again = await checkInvitation(db, input.token, now);
    return again.ok ? { ok: false, reason: error.reason } : again;
  }
}

/** Where an account's latest link stands, as the admins' pages show it. */
export interface InvitationSummary {
  purpose: InvitationPurpose;
  email: string;
  state: 'open' | 'expired' | 'accepted';
  sentAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  /** The email may not have left: the mail server's refusal in words. */
  deliveryError: string | null;
}

/** The latest link of each account given (all accounts when `userIds` is absent). */
export async function latestInvitations(
  db: ConsoleDb,
  userIds?: string[],
  now = new Date(),
): Promise<Map<string, InvitationSummary>> {
  if (userIds && userIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(userInvitations)
    .where(userIds ? inArray(userInvitations.userId, userIds) : undefined)
    .orderBy(desc(userInvitations.createdAt), desc(userInvitations.id));
  const latest = new Map<string, InvitationSummary>();
  for (const row of rows) {
    if (latest.has(row.userId)) continue;
    latest.set(row.userId, {
      purpose: row.purpose,
      email: row.email,
      state: row.usedAt ? 'accepted' : row.expiresAt <= now ? 'expired' : 'open',
      sentAt: row.createdAt,
      expiresAt: row.expiresAt,
      usedAt: row.usedAt,
      deliveryError: row.deliveryError,
    });
  }
  return latest;
}
