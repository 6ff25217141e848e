'use server';
// User administration. Creating a user, changing a role, enabling a user and disabling an admin are
// configuration changes other admins approve (the approval engine audits and carries them out); disabling
// anyone else stays immediate. No change may leave fewer independent admins than the policy needs, and the
// console never adds an admin alone: while it has too few, admins are added on the server (`npm run users`).
import { revalidatePath } from 'next/cache';
import { type RequestedChange, requestConfigurationChange } from '@/lib/actions/configuration-request';
import { type ActionResult, defineAction, ok, refuse } from '@/lib/actions/define-action';
import { alertConfigurationChange } from '@/lib/server/alerts';
import { getApprovalEngine } from '@/lib/server/approvals';
import { adminLeavingRefusal } from '@/lib/server/approvals/admin-quorum';
import { audit } from '@/lib/server/guard';
import { currentDb } from '@/lib/server/services';
import { disableUser, findUserByEmail, findUserById } from '@/lib/server/users';
import { requestIdSchema } from '@/lib/validation/approvals';
import { addUserSchema, changeRoleSchema, userIdSchema } from '@/lib/validation/users';

export type { RequestedChange };

/** Disabling someone: done at once, or (an admin) a request the other admins decide. */
export type DisableUserOutcome = { email: string } | RequestedChange;

/**
 * Asks for a new user (a second admin approves; the one-time password is then shown once to the requester on
 * the request page).
 */
export const addUserAction = defineAction({
  permission: 'userCreate.request',
  resource: 'users',
  input: addUserSchema,
  context: 'add user',
  stepUp: ({ email, name, role }) => ({ change: 'userCreate', email, name, role }),
  run: async ({ input, actor }): Promise<ActionResult<RequestedChange>> => {
    const db = await currentDb();
    if (await findUserByEmail(db, input.email)) {
      const taken = 'A user with this email already exists';
      await audit(actor, 'user.add', 'failed', { target: input.email, input: { email: input.email } });
      return refuse(taken, { fieldErrors: { email: taken } });
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
    if (input.role !== 'admin') {
      const leaving = await adminLeavingRefusal(await currentDb(), input.userId);
      if (leaving) return refuse(leaving);
    }
    return requestConfigurationChange(actor, 'userRole', input);
  },
});

/**
 * Disables a user at once (their open sessions end), except an admin: disabling an admin is a request the other
 * admins decide, refused when it would leave fewer independent admins than the policy needs.
 */
export const disableUserAction = defineAction({
  permission: 'users.manage',
  resource: 'users',
  input: userIdSchema,
  invalid: 'first-issue',
  context: 'disable user',
  stepUp: ({ userId }) => ({ change: 'userDisable', userId }),
  run: async ({ input, actor }): Promise<ActionResult<DisableUserOutcome>> => {
    if (input.userId === actor.id) return refuse('You cannot disable yourself.');
    const db = await currentDb();
    const target = await findUserById(db, input.userId);
    if (!target) return refuse('That user no longer exists.');
    if (target.role === 'admin') {
      const leaving = await adminLeavingRefusal(db, input.userId);
      if (leaving) {
        await audit(actor, 'user.disable', 'refused', { target: target.email, input: { reason: leaving } });
        return refuse(leaving);
      }
      return requestConfigurationChange(actor, 'userDisable', input);
    }
    const user = await disableUser(db, input.userId);
    if (!user) return refuse('That user no longer exists.');
    await audit(actor, 'user.disable', 'success', { target: user.email });
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
