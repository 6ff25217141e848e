'use server';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { headers } from 'next/headers';
// Sign-in and password change work before the page's script has loaded: they take the form's FormData
// (useActionState) rather than the wrapper's typed input, and redirect when they succeed.
import { redirect } from 'next/navigation';
import { AuthError, CredentialsSignin } from 'next-auth';
import { z } from 'zod';
import { SecondFactorRequired, signIn } from '@/lib/server/auth';
import { relyingParty } from '@/lib/server/factors/relying-party';
import { type FactorKind, pendingEnrolment, pendingPasskeyOptions } from '@/lib/server/factors/sign-in';
import { audit, currentActor } from '@/lib/server/guard';
import { verifyPassword } from '@/lib/server/passwords';
import { qrCodeDataUrl } from '@/lib/server/qr-code';
import { currentDb, currentServices } from '@/lib/server/services';
import { changePassword, findUserByEmail, findUserById } from '@/lib/server/users';
import { safeCallbackPath } from '@/lib/validation/callback-url';
import { fieldErrorsOf } from '@/lib/validation/errors';
import { changePasswordSchema, signInSchema } from '@/lib/validation/users';

export interface SignInState {
  error?: string;
  fieldErrors?: Partial<Record<'email' | 'password' | 'code', string>>;
  email?: string;
  /** The second step: the pending sign-in and the kinds of factor the person has (none: enrol one now). */
  secondStep?: { pendingId: string; methods: FactorKind[] };
}

const INVALID_CREDENTIALS = 'The email or password is not right.';
const LOCKED_MESSAGE = 'Too many failed attempts. Sign-in is locked for 15 minutes.';
const WRONG_FACTOR = 'That did not work. Check the code, or try your passkey again.';
const EXPIRED_STEP = 'The sign-in took too long. Enter your email and password again.';

function secondStepFields(formData: FormData) {
  const out: Record<string, string> = {};
  for (const name of ['pendingId', 'method', 'code', 'factorId', 'response', 'label']) {
    const value = formData.get(name);
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/** What a form action answers when called with something other than its form (a replayed or forged call). */
const NOT_A_FORM = 'Send the form from the page.';

export async function signInAction(prev: SignInState, formData: FormData): Promise<SignInState> {
  if (!(formData instanceof FormData)) return { error: NOT_A_FORM };
  if (!prev || typeof prev !== 'object') prev = {};
  const callbackUrl = String(formData.get('callbackUrl') ?? '/');
  // Only somewhere on the console is followed (no open redirect).
  const target = safeCallbackPath(callbackUrl);
  const email = String(formData.get('email') ?? '');
  if (formData.get('pendingId')) return secondStep(prev, formData, email, target);
  const raw = { email, password: String(formData.get('password') ?? '') };
  const parsed = signInSchema.safeParse(raw);
  if (!parsed.success) return { fieldErrors: fieldErrorsOf(parsed.error), email: raw.email };
  try {
    await signIn('credentials', { ...parsed.data, redirect: false });
  } catch (error) {
    if (error instanceof SecondFactorRequired) return { email: raw.email, secondStep: error.pending };
    if (error instanceof CredentialsSignin) {
      return { error: error.code === 'locked' ? LOCKED_MESSAGE : INVALID_CREDENTIALS, email: raw.email };
    }
    if (error instanceof AuthError) return { error: INVALID_CREDENTIALS, email: raw.email };
    throw error;
  }
  await afterSignIn(parsed.data.email, target);
  return {};
}

/** The code, passkey or enrolment after the right password; the password is not sent again. */
async function secondStep(
  prev: SignInState,
  formData: FormData,
  email: string,
  target: string,
): Promise<SignInState> {
  const fields = secondStepFields(formData);
  const pending = prev.secondStep?.pendingId === fields.pendingId ? prev.secondStep : undefined;
  const again = (error: string, fieldErrors?: SignInState['fieldErrors']): SignInState => ({
    email,
    error,
    ...(fieldErrors ? { fieldErrors } : {}),
    secondStep: pending ?? { pendingId: fields.pendingId ?? '', methods: [] },
  });
  if (
    (fields.method === 'totp' || fields.method === 'enrol-totp') &&
    !/^\d{6}$/.test(fields.code?.trim() ?? '')
  ) {
    return again('Enter the 6-digit code.', { code: 'Enter the 6-digit code' });
  }
  try {
    await signIn('credentials', { ...fields, redirect: false });
  } catch (error) {
    if (error instanceof CredentialsSignin) {
      if (error.code === 'locked') return { email, error: LOCKED_MESSAGE };
      if (error.code === 'second-factor-wrong') return again(WRONG_FACTOR);
      return { email, error: EXPIRED_STEP };
    }
    if (error instanceof AuthError) return { email, error: EXPIRED_STEP };
    throw error;
  }
  await afterSignIn(email, target);
  return {};
}

async function afterSignIn(email: string, target: string): Promise<never> {
  // A one-time password leads straight to choosing a new one.
  const user = await findUserByEmail(await currentDb(), email);
  redirect(user?.mustChangePassword ? '/change-password' : target);
}

const pendingSchema = z.object({ pendingId: z.uuid() });

async function relyingPartyHere() {
  const services = await currentServices();
  return {
    db: services.database.db,
    key: services.config.encryptionKey,
    rp: relyingParty(services.config.origin, (await headers()).get('origin')),
  };
}

/** The passkey request for a pending sign-in (before any session: the pending id is the proof of the password). */
export async function signInPasskeyOptionsAction(
  input: unknown,
): Promise<{ ok: true; options: PublicKeyCredentialRequestOptionsJSON } | { ok: false; error: string }> {
  const parsed = pendingSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: EXPIRED_STEP };
  const { db, rp } = await relyingPartyHere();
  const options = await pendingPasskeyOptions(db, rp, parsed.data.pendingId);
  return options ? { ok: true, options } : { ok: false, error: EXPIRED_STEP };
}

export type SignInEnrolment =
  | { ok: true; kind: 'totp'; factorId: string; secret: string; uri: string; qrCode: string }
  | { ok: true; kind: 'passkey'; options: PublicKeyCredentialCreationOptionsJSON }
  | { ok: false; error: string };

/** For a person with approval rights and no second factor yet: the enrolment that finishes their sign-in. */
export async function signInEnrolmentAction(input: unknown): Promise<SignInEnrolment> {
  const parsed = pendingSchema.extend({ kind: z.enum(['totp', 'passkey']) }).safeParse(input);
  if (!parsed.success) return { ok: false, error: EXPIRED_STEP };
  const { db, key, rp } = await relyingPartyHere();
  const started = await pendingEnrolment(db, key, rp, parsed.data.pendingId, parsed.data.kind);
  if (!started) return { ok: false, error: EXPIRED_STEP };
  if (started.kind === 'passkey') return { ok: true, kind: 'passkey', options: started.options };
  return {
    ok: true,
    kind: 'totp',
    factorId: started.factorId,
    secret: started.secret,
    uri: started.uri,
    qrCode: await qrCodeDataUrl(started.uri),
  };
}

export interface ChangePasswordState {
  error?: string;
  fieldErrors?: Partial<Record<'currentPassword' | 'newPassword' | 'confirmPassword', string>>;
}

export async function changePasswordAction(
  _prev: ChangePasswordState,
  formData: FormData,
): Promise<ChangePasswordState> {
  const actor = await currentActor();
  if (!actor) return { error: 'Your session has ended. Sign in again.' };
  if (!(formData instanceof FormData)) return { error: NOT_A_FORM };
  const parsed = changePasswordSchema.safeParse({
    currentPassword: formData.get('currentPassword') ?? '',
    newPassword: formData.get('newPassword') ?? '',
    confirmPassword: formData.get('confirmPassword') ?? '',
  });
  if (!parsed.success) return { fieldErrors: fieldErrorsOf(parsed.error) };
  const db = await currentDb();
  const user = await findUserById(db, actor.id);
  if (!user || !(await verifyPassword(parsed.data.currentPassword, user.passwordHash))) {
    await audit(actor, 'user.change_password', 'failed', { target: actor.email });
    return { fieldErrors: { currentPassword: 'The current password is not right' } };
  }
  await changePassword(db, actor.id, parsed.data.newPassword);
  await audit(actor, 'user.change_password', 'success', { target: actor.email });
  // The password change ended the old session (its version moved on); start a new one. People with a second
  // factor sign in again with the new password and their factor, and so does anyone whose address has made too many
  // failed sign-ins lately (sign-in answers them as locked until the window passes).
  try {
    await signIn('credentials', { email: user.email, password: parsed.data.newPassword, redirect: false });
  } catch (error) {
    if (error instanceof SecondFactorRequired) redirect('/sign-in');
    if (error instanceof CredentialsSignin && error.code === 'locked') redirect('/sign-in');
    throw error;
  }
  redirect('/');
}
