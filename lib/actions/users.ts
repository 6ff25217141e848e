'use server';
import { revalidatePath } from 'next/cache';
import { defineAction, ok, refuse } from '@/lib/actions/define-action';
import { currentDb } from '@/lib/server/services';
import { createUser, disableUser, enableUser, setUserRole } from '@/lib/server/users';
import { addUserSchema, changeRoleSchema, userIdSchema } from '@/lib/validation/users';

export interface AddedUser {
  email: string;
  oneTimePassword: string;
}

/** Creates a user with a one-time password, shown to the admin in this result only. */
export const addUserAction = defineAction({
  permission: 'users.manage',
  resource: 'users',
  input: addUserSchema,
  context: 'add user',
  audit: {
    action: 'user.add',
    input: ({ email, name, role }) => ({ email, name, role }),
    target: ({ email }) => email,
  },
  run: async ({ input }) => {
    const result = await createUser(await currentDb(), input);
    if (!result.ok) return refuse(result.error, { fieldErrors: { email: result.error } });
    revalidatePath('/admin/users');
    return ok<AddedUser>({ email: result.user.email, oneTimePassword: result.oneTimePassword });
  },
});

export const changeUserRoleAction = defineAction({
  permission: 'users.manage',
  resource: 'users',
  input: changeRoleSchema,
  invalid: 'first-issue',
  context: 'change user role',
  audit: {
    action: 'user.change_role',
    input: ({ role }) => ({ role }),
    target: ({ userId }, data?: { email: string }) => data?.email ?? userId,
  },
  run: async ({ input, actor }) => {
    // An admin demoting themselves could leave the console without one.
    if (input.userId === actor.id) return refuse('You cannot change your own role.');
    const user = await setUserRole(await currentDb(), input.userId, input.role);
    if (!user) return refuse('That user no longer exists.');
    revalidatePath('/admin/users');
    return ok({ email: user.email });
  },
});

function userSwitch(disabled: boolean) {
  return defineAction({
    permission: 'users.manage',
    resource: 'users',
    input: userIdSchema,
    invalid: 'first-issue',
    context: disabled ? 'disable user' : 'enable user',
    audit: {
      action: disabled ? 'user.disable' : 'user.enable',
      target: ({ userId }, data: { email: string } | undefined) => data?.email ?? userId,
    },
    run: async ({ input, actor }) => {
      if (input.userId === actor.id) return refuse('You cannot disable yourself.');
      const db = await currentDb();
      const user = disabled ? await disableUser(db, input.userId) : await enableUser(db, input.userId);
      if (!user) return refuse('That user no longer exists.');
      revalidatePath('/admin/users');
      return ok({ email: user.email });
    },
  });
}

/** Disables a user; their open sessions end at once (the session version moves on). */
export const disableUserAction = userSwitch(true);
export const enableUserAction = userSwitch(false);
