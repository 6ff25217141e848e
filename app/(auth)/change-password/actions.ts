'use server';
import { redirect } from 'next/navigation';
import { signIn } from '@/lib/server/auth';
import { audit, currentActor } from '@/lib/server/guard';
import { verifyPassword } from '@/lib/server/passwords';
import { getDb } from '@/lib/server/runtime';
import { changePassword, findUserById } from '@/lib/server/users';
import { changePasswordSchema } from '@/lib/validation/users';

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
  const parsed = changePasswordSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    const fieldErrors: ChangePasswordState['fieldErrors'] = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as keyof NonNullable<ChangePasswordState['fieldErrors']>;
      fieldErrors[key] ??= issue.message;
    }
    return { fieldErrors };
  }
  const db = await getDb();
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
