import 'server-only';
// Credentials reach a person only through their own mailbox: a new account, and a reset an admin asked for, send
// the person a link where they set their own password (and second factor). The link is written into the email and
// nowhere else; no admin ever sees it. Through SMTP_URL; in sandbox mode without it, to the sandbox mailbox.
import type { ConsoleConfig } from '@/lib/config';
import type { ConsoleDb, InvitationPurpose, Role } from '@/lib/db/schema';
import { outboundRules } from '../alerts/outbound';
import { type AlertMessage, type AlertSenders, createAlertSenders, DeliveryError } from '../alerts/senders';
import { confirmedFactorKinds, requiresSecondFactor } from '../factors/store';
import { findUserById } from '../users';
import { deliverToSandboxMailbox } from './sandbox-mailbox';
import { issueInvitation, latestInvitations, recordDeliveryError } from './store';

export {
  acceptInvitation,
  checkInvitation,
  type InvitationSummary,
  invitationRefusalSentence,
  latestInvitations,
} from './store';

/** What sending needs of the console's configuration. */
export type InvitationConfig = Pick<ConsoleConfig, 'env' | 'sandboxMode' | 'dataDir' | 'origin'>;

/** Against a real service, people are invited by email only: without a mail server nobody can be added. */
export const INVITATIONS_NEED_SMTP =
  'Invitations are sent by email and this console has no mail server: set SMTP_URL (for example smtp://user:password@mail.example.com:587) and restart the console, then add the person.';

/** Why this console cannot send invitations, or null when it can. */
export function invitationProblem(config: InvitationConfig): string | null {
  return config.env.SMTP_URL || config.sandboxMode ? null : INVITATIONS_NEED_SMTP;
}

const DEFAULT_FROM = 'Custody Console <alerts@localhost>';
const smtpSenders = new Map<string, AlertSenders>();

async function deliver(config: InvitationConfig, to: string, message: AlertMessage): Promise<void> {
  const smtpUrl = config.env.SMTP_URL;
  if (smtpUrl) {
    let senders = smtpSenders.get(smtpUrl);
    if (!senders) {
      // The rules only concern chat webhooks; an email goes to the operator's own mail server.
      senders = createAlertSenders({
        smtpUrl,
        from: config.env.ALERT_FROM ?? DEFAULT_FROM,
        rules: outboundRules(undefined, false),
      });
      smtpSenders.set(smtpUrl, senders);
    }
    await senders.email(to, message);
    return;
  }
  if (config.sandboxMode) {
    await deliverToSandboxMailbox(config.dataDir, to, message);
    return;
  }
  throw new DeliveryError(INVITATIONS_NEED_SMTP);
}

const when = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

function invitationMessage(input: {
  purpose: InvitationPurpose;
  name: string;
  email: string;
  role: Role;
  link: string;
  expiresAt: Date;
  needsFactor: boolean;
  origin: string;
}): AlertMessage {
  const factor = input.needsFactor ? ' and set up an authenticator app on your phone' : '';
  const once = `The link works once, until ${when(input.expiresAt)}.`;
  const unexpected =
    'If you did not expect this email, do not open the link and tell the people who run the console.';
  if (input.purpose === 'reset')
    return {
      subject: 'Reset your Custody Console sign-in',
      body: `Hello ${input.name},\n\nAn admin asked for a new sign-in for your account ${input.email} on the Custody Console (${input.origin}), and another approved it. Your old password no longer works. Open the link below to choose a new password${factor}. ${once}\n\n${unexpected}`,
      link: input.link,
    };
  return {
    subject: 'Your Custody Console account',
    body: `Hello ${input.name},\n\nAn account was made for you on the Custody Console (${input.origin}) with the role ${input.role}. Open the link below to choose your password${factor}. ${once}\n\n${unexpected}`,
    link: input.link,
  };
}

/** What became of a link: never the link itself. */
export interface InvitationSent {
  email: string;
  expiresAt: string;
  /** False when the mail server refused or could not be reached; `error` says why, in words. */
  delivered: boolean;
  error?: string;
}

/**
 * Issues a new link for the account (the older ones stop working) and emails it to the account's own address.
 * A delivery failure is recorded and answered, not thrown: the account stays as it is, and an admin can send the
 * link again.
 */
export async function sendInvitation(
  db: ConsoleDb,
  config: InvitationConfig,
  input: { userId: string; purpose: InvitationPurpose; issuedBy: string | null; requestId?: string | null },
): Promise<InvitationSent> {
  const user = await findUserById(db, input.userId);
  if (!user) throw new Error('sendInvitation: no such user');
  const issued = await issueInvitation(db, {
    user,
    purpose: input.purpose,
    issuedBy: input.issuedBy,
    requestId: input.requestId,
  });
  const needsFactor = requiresSecondFactor(user.role) && (await confirmedFactorKinds(db, user.id)).size === 0;
  const message = invitationMessage({
    purpose: input.purpose,
    name: user.name,
    email: user.email,
    role: user.role,
    link: `${config.origin.replace(/\/+$/, '')}/invite/${issued.token}`,
    expiresAt: issued.expiresAt,
    needsFactor,
    origin: config.origin,
  });
  const sent: InvitationSent = {
    email: user.email,
    expiresAt: issued.expiresAt.toISOString(),
    delivered: true,
  };
  try {
    await deliver(config, user.email, message);
  } catch (error) {
    // The reason only: the SMTP URL and the link never reach a log or a page.
    const reason = error instanceof DeliveryError ? error.message : 'Could not deliver';
    await recordDeliveryError(db, issued.id, reason);
    return { ...sent, delivered: false, error: reason };
  }
  return sent;
}

export type ResendOutcome = { ok: true; sent: InvitationSent } | { ok: false; error: string };

/**
 * "Send the invitation again": a new link replaces the account's open one, while the person has not used theirs.
 * Nothing is revealed to the admin who asks; their request gives them no control over the account (the link goes
 * to the address the account already has).
 */
export async function resendInvitation(
  db: ConsoleDb,
  config: InvitationConfig,
  input: { userId: string; issuedBy: string },
): Promise<ResendOutcome> {
  const problem = invitationProblem(config);
  if (problem) return { ok: false, error: problem };
  const user = await findUserById(db, input.userId);
  if (!user) return { ok: false, error: 'That user no longer exists.' };
  if (user.disabledAt) return { ok: false, error: `${user.email} is disabled: nothing is sent to them.` };
  const latest = (await latestInvitations(db, [user.id])).get(user.id);
  if (!latest)
    return {
      ok: false,
      error: `${user.email} was not invited by email. To give them a new password, send a reset link (another admin approves it).`,
    };
  if (latest.state === 'accepted')
    return {
      ok: false,
      error: `${user.email} has already used their link. To give them a new password, send a reset link (another admin approves it).`,
    };
  const sent = await sendInvitation(db, config, {
    userId: user.id,
    purpose: latest.purpose,
    issuedBy: input.issuedBy,
  });
  return { ok: true, sent };
}
