'use server';
// Sign-in and password change work before the page's script has loaded: they take the form's FormData
// (useActionState) rather than the wrapper's typed input, and redirect when they succeed.
import { redirect } from 'next/navigation';
import { AuthError, CredentialsSignin } from 'next-auth';
import { signIn } from '@/lib/server/auth';
import { audit, currentActor } from '@/lib/server/guard';
import { verifyPassword } from '@/lib/server/passwords';
import { currentDb } from '@/lib/server/services';
import { changePassword, findUserByEmail, findUserById } from '@/lib/server/users';
import { fieldErrorsOf } from '@/lib/validation/errors';
import { changePasswordSchema, signInSchema } from '@/lib/validation/users';

export interface SignInState {
  error?: string;
  fieldErrors?: Partial<Record<'email' | 'password', string>>;
  email?: string;
}

const INVALID_CREDENTIALS = 'The email or password is not right.';
const LOCKED_MESSAGE = 'Too many failed attempts. Sign-in is locked for 15 minutes.';

export async function signInAction(_prev: SignInState, formData: FormData): Promise<SignInState> {
  const raw = {
    email: String(formData.get('email') ?? ''),
    password: String(formData.get('password') ?? ''),
  };
  const parsed = signInSchema.safeParse(raw);
  if (!parsed.success) return { fieldErrors: fieldErrorsOf(parsed.error), email: raw.email };
  const callbackUrl = String(formData.get('callbackUrl') ?? '/');
  // Only same-site paths are followed (no open redirect).
  const target = callbackUrl.startsWith('/') && !callbackUrl.startsWith('//') ? callbackUrl : '/';
  try {
    await signIn('credentials', { ...parsed.data, redirect: false });
  } catch (error) {
    if (error instanceof CredentialsSignin) {
      return { error: error.code === 'locked' ? LOCKED_MESSAGE : INVALID_CREDENTIALS, email: raw.email };
    }
    if (error instanceof AuthError) return { error: INVALID_CREDENTIALS, email: raw.email };
    throw error;
  }
  // A one-time password leads straight to choosing a new one.
  const user = await findUserByEmail(await currentDb(), parsed.data.email);
  redirect(user?.mustChangePassword ? '/change-password' : target);
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
  // The password change ended the old session (its version moved on); start a new one.
  await signIn('credentials', { email: user.email, password: parsed.data.newPassword, redirect: false });
  redirect('/');
}
