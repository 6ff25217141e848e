'use server';
import { redirect } from 'next/navigation';
import { AuthError, CredentialsSignin } from 'next-auth';
import { signIn } from '@/lib/server/auth';
import { getDb } from '@/lib/server/runtime';
import { findUserByEmail } from '@/lib/server/users';
import { signInSchema } from '@/lib/validation/users';

export interface SignInState {
  error?: string;
  fieldErrors?: { email?: string; password?: string };
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
  if (!parsed.success) {
    const fieldErrors: SignInState['fieldErrors'] = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as 'email' | 'password';
      fieldErrors[key] ??= issue.message;
    }
    return { fieldErrors, email: raw.email };
  }
  const callbackUrl = String(formData.get('callbackUrl') ?? '/');
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
  const user = await findUserByEmail(await getDb(), parsed.data.email);
  redirect(user?.mustChangePassword ? '/change-password' : target);
}
