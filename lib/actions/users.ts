'use server';
// User administration. Creating a user, changing a role and enabling a user are configuration changes a
// second admin approves (the approval engine audits and carries them out); disabling stays immediate. While
// one admin exists, that admin adds a second admin alone, once.
import { revalidatePath } from 'next/cache';
import { type RequestedChange, requestConfigurationChange } from '@/lib/actions/configuration-request';
import { type ActionResult, defineAction, ok, refuse } from '@/lib/actions/define-action';
import { alertConfigurationChange } from '@/lib/server/alerts';
import { getApprovalEngine } from '@/lib/server/approvals';
import { audit } from '@/lib/server/guard';
import { currentDb } from '@/lib/server/services';
import { adminQuorum, bootstrapSecondAdmin, disableUser, findUserByEmail } from '@/lib/server/users';
import { requestIdSchema } from '@/lib/validation/approvals';
import { addUserSchema, changeRoleSchema, userIdSchema } from '@/lib/validation/users';

/** The one admin added a second admin alone: the one-time password is shown in this result only. */
interface BootstrappedAdmin {
  kind: 'created';
  email: string;
  oneTimePassword: string;
}

export type { RequestedChange };
export type AddUserOutcome = RequestedChange | BootstrappedAdmin;

/**
 * Asks for a new user (a second admin approves; the one-time password is then shown once to the requester on
 * the request page). The only admin adding a second admin does it alone, once.
 */
export const addUserAction = defineAction({
  permission: 'userCreate.request',
  resource: 'users',
  input: addUserSchema,
  context: 'add user',
  stepUp: ({ email, name, role }) => ({ change: 'userCreate', email, name, role }),
  run: async ({ input, actor }): Promise<ActionResult<AddUserOutcome>> => {
    const db = await currentDb();
    if (await findUserByEmail(db, input.email)) {
      const taken = 'A user with this email already exists';
      await audit(actor, 'user.add', 'failed', { target: input.email, input: { email: input.email } });
      return refuse(taken, { fieldErrors: { email: taken } });
    }
    if (input.role === 'admin' && (await adminQuorum(db)).mayBootstrap) {
      const created = await bootstrapSecondAdmin(db, actor, input);
      await audit(actor, 'user.bootstrap_admin', created.ok ? 'success' : 'failed', {
        target: input.email,
        input: { email: input.email, name: input.name, role: 'admin' },
      });
      if (!created.ok) return refuse(created.error, { fieldErrors: { email: created.error } });
      await alertConfigurationChange({
        key: `user-create:${created.user.id}`,
        summary: `Second admin ${created.user.email} added`,
        by: actor.email,
        path: '/admin/users',
      });
      revalidatePath('/', 'layout');
      return ok({ kind: 'created', email: created.user.email, oneTimePassword: created.oneTimePassword });
    }
    return requestConfigurationChange(actor, 'userCreate', input, 'email');
  },
});

/** The new user's one-time password, once, to the admin who asked for the user. */
export const revealOneTimePasswordAction = defineAction({
  permission: 'userCreate.request',
  resource: 'users',
  input: requestIdSchema,
  invalid: 'first-issue',
  context: 'show one-time password',
  stepUp: ({ requestId }) => ({ reveal: 'one-time password', requestId }),
  run: async ({ input: { requestId }, actor }) => {
    const taken = await (await getApprovalEngine()).takeOneTimePassword(actor, requestId);
    if (!taken.ok) return refuse(taken.error, { status: taken.status });
    return ok(taken.data);
  },
});

/** Asks for a role change; a second admin approves. */
export const changeUserRoleAction = defineAction({
  permission: 'userRole.request',
  resource: 'users',
  input: changeRoleSchema,
  invalid: 'first-issue',
  context: 'change user role',
  stepUp: ({ userId, role }) => ({ change: 'userRole', userId, role }),
  run: async ({ input, actor }) => {
    // An admin demoting themselves could leave the console without one.
    if (input.userId === actor.id) return refuse('You cannot change your own role.');
    return requestConfigurationChange(actor, 'userRole', input);
  },
});

/** Disables a user at once; their open sessions end (the session version moves on). */
export const disableUserAction = defineAction({
  permission: 'users.manage',
  resource: 'users',
  input: userIdSchema,
  invalid: 'first-issue',
  context: 'disable user',
  stepUp: ({ userId }) => ({ change: 'userDisable', userId }),
  audit: {
    action: 'user.disable',
    target: ({ userId }, data: { email: string } | undefined) => data?.email ?? userId,
  },
  run: async ({ input, actor }) => {
    if (input.userId === actor.id) return refuse('You cannot disable yourself.');
    const user = await disableUser(await currentDb(), input.userId);
    if (!user) return refuse('That user no longer exists.');
    await alertConfigurationChange({
      key: `user-disable:${user.id}:${user.sessionVersion}`,
      summary: `User ${user.email} disabled`,
      by: actor.email,
      path: '/admin/users',
    });
    revalidatePath('/admin/users');
    return ok({ email: user.email });
  },
});

/** Asks to let a disabled user sign in again; a second admin approves. */
export const enableUserAction = defineAction({
  permission: 'userEnable.request',
  resource: 'users',
  input: userIdSchema,
  invalid: 'first-issue',
  context: 'enable user',
  stepUp: ({ userId }) => ({ change: 'userEnable', userId }),
  run: async ({ input, actor }) => {
    if (input.userId === actor.id) return refuse('You cannot enable yourself.');
    return requestConfigurationChange(actor, 'userEnable', input);
  },
});
