'use server';
// User administration. Creating a user, a reset link, changing a role, enabling a user and disabling an admin
// are configuration changes other admins approve (the approval engine audits and carries them out); disabling
// anyone else stays immediate. No change may leave fewer independent admins than the policy needs, and the
// console never adds an admin alone: while it has too few, admins are added on the server (`npm run users`).
// No admin ever sees anyone's credential: a new user and a reset get a link in their own mailbox.
import { revalidatePath } from 'next/cache';
import { type RequestedChange, requestConfigurationChange } from '@/lib/actions/configuration-request';
import { type ActionResult, defineAction, ok, refuse } from '@/lib/actions/define-action';
import { alertConfigurationChange } from '@/lib/server/alerts';
import { adminLeavingRefusal } from '@/lib/server/approvals/admin-quorum';
import { audit } from '@/lib/server/guard';
import { invitationProblem, resendInvitation } from '@/lib/server/invitations';
import { currentDb, currentServices } from '@/lib/server/services';
import { disableUser, findUserByEmail, findUserById } from '@/lib/server/users';
import { addUserSchema, changeRoleSchema, resetLinkSchema, userIdSchema } from '@/lib/validation/users';

export type { RequestedChange };

/** Disabling someone: done at once, or (an admin) a request the other admins decide. */
export type DisableUserOutcome = { email: string } | RequestedChange;

/**
 * Asks for a new user (a second admin approves; the console then emails the person an invitation link where they
 * set their own password and second factor). Refused at once when invitations cannot leave this console.
 */
export const addUserAction = defineAction({
  permission: 'userCreate.request',
  resource: 'users',
  input: addUserSchema,
  context: 'add user',
  stepUp: ({ email, name, role }) => ({ change: 'userCreate', email, name, role }),
  run: async ({ input, actor }): Promise<ActionResult<RequestedChange>> => {
    const services = await currentServices();
    const problem = invitationProblem(services.config);
    if (problem) {
      await audit(actor, 'user.add', 'refused', { target: input.email, input: { reason: 'no mail server' } });
      return refuse(problem);
    }
    const db = services.database.db;
    if (await findUserByEmail(db, input.email)) {
      const taken = 'A user with this email already exists';
      await audit(actor, 'user.add', 'failed', { target: input.email, input: { email: input.email } });
      return refuse(taken, { fieldErrors: { email: taken } });
    }
    return requestConfigurationChange(actor, 'userCreate', input, 'email');
  },
});

/** Where a new invitation link went (never the link). */
export interface InvitationResent {
  email: string;
  delivered: boolean;
  error?: string;
}

/**
 * "Send the invitation again": a new link to the person's own address replaces the one they have not used yet.
 * No request: nothing changes hands (the address is the account's own) and nothing is shown to the admin.
 */
export const resendInvitationAction = defineAction({
  permission: 'users.manage',
  resource: 'users',
  input: userIdSchema,
  invalid: 'first-issue',
  context: 'send the invitation again',
  run: async ({ input, actor }): Promise<ActionResult<InvitationResent>> => {
    const services = await currentServices();
    const db = services.database.db;
    const resent = await resendInvitation(db, services.config, { userId: input.userId, issuedBy: actor.id });
    const target = (await findUserById(db, input.userId))?.email ?? input.userId;
    if (!resent.ok) {
      await audit(actor, 'user.invitation_resend', 'refused', { target, input: { reason: resent.error } });
      return refuse(resent.error);
    }
    const { email, delivered, error } = resent.sent;
    await audit(actor, 'user.invitation_resend', delivered ? 'success' : 'failed', {
      target: email,
      input: { delivered },
    });
    revalidatePath('/admin/users');
    return ok({ email, delivered, ...(error ? { error } : {}) });
  },
});

/**
 * Asks for a reset link (a second admin approves): the person's password, and with `password-and-factors` their
 * second factors, stop working, and a link to set new ones goes to their own mailbox.
 */
export const requestResetLinkAction = defineAction({
  permission: 'userReset.request',
  resource: 'users',
  input: resetLinkSchema,
  invalid: 'first-issue',
  context: 'request a reset link',
  stepUp: ({ userId, scope }) => ({ change: 'userReset', userId, scope }),
  run: async ({ input, actor }) => {
    if (input.userId === actor.id) return refuse('Ask another admin to send you a reset link.');
    const services = await currentServices();
    const problem = invitationProblem(services.config);
    if (problem) return refuse(problem);
    const target = await findUserById(services.database.db, input.userId);
    if (!target) return refuse('That user no longer exists.');
    if (target.disabledAt)
      return refuse(`${target.email} is disabled: enable them before sending a reset link.`);
    return requestConfigurationChange(actor, 'userReset', input);
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
