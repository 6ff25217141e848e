'use server';
// The invitation page's actions, for a person without a session: the link's token is the only proof, checked
// here on every call (single use, not expired, not replaced, account enabled). They set the person's own
// password and, when their role approves, enrol their own authenticator app. Nothing here reaches an admin.
import { z } from 'zod';
import { appendAudit } from '@/lib/server/audit';
import { NETWORK_REFUSED, requestNetworkAllowed } from '@/lib/server/client-address';
import { confirmedFactorKinds } from '@/lib/server/factors/store';
import { enrollTotp } from '@/lib/server/factors/totp';
import { acceptInvitation, checkInvitation, invitationRefusalSentence } from '@/lib/server/invitations';
import { hashPassword } from '@/lib/server/passwords';
import { qrCodeDataUrl } from '@/lib/server/qr-code';
import { currentServices } from '@/lib/server/services';
import { fieldErrorsOf } from '@/lib/validation/errors';
import { acceptInvitationSchema } from '@/lib/validation/users';

const NOT_A_FORM = 'Send the form from the page.';
const LINK_NOT_VALID = invitationRefusalSentence({ reason: 'unknown' });

export type InvitationEnrolment =
  | { ok: true; factorId: string; secret: string; uri: string; qrCode: string }
  | { ok: false; error: string };

const tokenInput = z.object({ token: z.string().max(100) });

/** The authenticator app the person enrols at their link: its secret goes to them alone, on their own page. */
export async function startInvitationTotpAction(input: unknown): Promise<InvitationEnrolment> {
  if (!(await requestNetworkAllowed())) return { ok: false, error: NETWORK_REFUSED };
  const parsed = tokenInput.safeParse(input);
  if (!parsed.success) return { ok: false, error: LINK_NOT_VALID };
  const services = await currentServices();
  const db = services.database.db;
  const check = await checkInvitation(db, parsed.data.token);
  if (!check.ok) return { ok: false, error: invitationRefusalSentence(check) };
  if (!check.needsFactor) return { ok: false, error: 'Your account needs no authenticator app here.' };
  const started = await enrollTotp(db, services.config.encryptionKey, check.user, 'Authenticator app');
  return {
    ok: true,
    factorId: started.factorId,
    secret: started.secret,
    uri: started.uri,
    qrCode: await qrCodeDataUrl(started.uri),
  };
}

export interface InvitationState {
  error?: string;
  fieldErrors?: Partial<Record<'newPassword' | 'confirmPassword' | 'code', string>>;
  /** The link can no longer be used: the page shows the sentence instead of the form. */
  gone?: boolean;
  /** Done: the person signs in with their new password (and their app). */
  done?: { email: string; withFactor: boolean };
}

/** Uses the link: the password the person chose, and their authenticator app's first code when one is due. */
export async function acceptInvitationAction(
  _prev: InvitationState,
  formData: FormData,
): Promise<InvitationState> {
  if (!(formData instanceof FormData)) return { error: NOT_A_FORM };
  if (!(await requestNetworkAllowed())) return { error: NETWORK_REFUSED };
  const field = (name: string) => {
    const value = formData.get(name);
    return typeof value === 'string' ? value : '';
  };
  const parsed = acceptInvitationSchema.safeParse({
    token: field('token'),
    newPassword: field('newPassword'),
    confirmPassword: field('confirmPassword'),
    factorId: field('factorId'),
    code: field('code'),
  });
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error);
    if (fieldErrors.token || fieldErrors.factorId) return { error: LINK_NOT_VALID, gone: true };
    return { fieldErrors };
  }
  const { token, newPassword, factorId, code } = parsed.data;
  const services = await currentServices();
  const db = services.database.db;
  const check = await checkInvitation(db, token);
  if (!check.ok) return { error: invitationRefusalSentence(check), gone: true };
  if (check.needsFactor) {
    if (!factorId) return { fieldErrors: { code: 'Set up your authenticator app first' } };
    if (!/^\d{6}$/.test(code)) return { fieldErrors: { code: 'Enter the 6-digit code your app shows' } };
  }
  const accepted = await acceptInvitation(db, services.config.encryptionKey, {
    token,
    passwordHash: await hashPassword(newPassword),
    ...(check.needsFactor ? { factor: { factorId, code } } : {}),
  });
  const who = check.user;
  if (!accepted.ok) {
    await appendAudit(db, {
      actorId: who.id,
      actorEmail: who.email,
      role: who.role,
      action: 'user.invitation_accept',
      target: who.email,
      input: { purpose: check.invitation.purpose, reason: accepted.reason },
      outcome: 'failed',
    });
    const { reason, expiresAt } = accepted;
    if (reason === 'code')
      return { fieldErrors: { code: 'That code did not match: enter the one your app shows now' } };
    if (reason === 'factor-missing') return { fieldErrors: { code: 'Set up your authenticator app first' } };
    return { error: invitationRefusalSentence({ reason, ...(expiresAt ? { expiresAt } : {}) }), gone: true };
  }
  // The person's own act: never the password, the token or the code.
  await appendAudit(db, {
    actorId: who.id,
    actorEmail: who.email,
    role: who.role,
    action: 'user.invitation_accept',
    target: who.email,
    input: { purpose: accepted.purpose, factorEnrolled: accepted.factorEnrolled },
    outcome: 'success',
  });
  const factors = await confirmedFactorKinds(db, who.id);
  return { done: { email: accepted.user.email, withFactor: factors.size > 0 } };
}
