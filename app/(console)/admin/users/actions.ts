'use server';
import { revalidatePath } from 'next/cache';
import type { z } from 'zod';
import { type ActionResult, audit, authorize } from '@/lib/server/guard';
import { getDb } from '@/lib/server/runtime';
import { createUser, disableUser, enableUser, setUserRole } from '@/lib/server/users';
import { addUserSchema, changeRoleSchema, userIdSchema } from '@/lib/validation/users';

function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) out[String(issue.path[0] ?? 'form')] ??= issue.message;
  return out;
}

export async function addUserAction(
  input: unknown,
): Promise<ActionResult<{ email: string; oneTimePassword: string }>> {
  const authz = await authorize('users.manage', 'users');
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  const parsed = addUserSchema.safeParse(input);
  if (!parsed.success)
    return { ok: false, error: 'Check the highlighted fields.', fieldErrors: fieldErrorsOf(parsed.error) };
  const result = await createUser(await getDb(), parsed.data);
  await audit(authz.actor, 'user.add', result.ok ? 'success' : 'failed', {
    target: parsed.data.email,
    input: { email: parsed.data.email, name: parsed.data.name, role: parsed.data.role },
  });
  if (!result.ok) return { ok: false, error: result.error, fieldErrors: { email: result.error } };
  revalidatePath('/admin/users');
  return { ok: true, data: { email: result.user.email, oneTimePassword: result.oneTimePassword } };
}

export async function changeUserRoleAction(input: unknown): Promise<ActionResult> {
  const authz = await authorize('users.manage', 'users');
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  const parsed = changeRoleSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? 'Invalid input' };
  if (parsed.data.userId === authz.actor.id) return { ok: false, error: 'You cannot change your own role.' };
  const user = await setUserRole(await getDb(), parsed.data.userId, parsed.data.role);
  await audit(authz.actor, 'user.change_role', user ? 'success' : 'failed', {
    target: user?.email ?? parsed.data.userId,
    input: { role: parsed.data.role },
  });
  if (!user) return { ok: false, error: 'That user no longer exists.' };
  revalidatePath('/admin/users');
  return { ok: true, data: undefined };
}

export async function setUserDisabledAction(input: unknown, disabled: boolean): Promise<ActionResult> {
  const authz = await authorize('users.manage', 'users');
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  const parsed = userIdSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? 'Invalid input' };
  if (parsed.data.userId === authz.actor.id) return { ok: false, error: 'You cannot disable yourself.' };
  const db = await getDb();
  const user = disabled
    ? await disableUser(db, parsed.data.userId)
    : await enableUser(db, parsed.data.userId);
  await audit(authz.actor, disabled ? 'user.disable' : 'user.enable', user ? 'success' : 'failed', {
    target: user?.email ?? parsed.data.userId,
  });
  if (!user) return { ok: false, error: 'That user no longer exists.' };
  revalidatePath('/admin/users');
  return { ok: true, data: undefined };
}
