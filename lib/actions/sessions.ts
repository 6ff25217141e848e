'use server';
// Ending sessions from the sessions list (one's own) and from the users page (an admin, anyone's).
import { revalidatePath } from 'next/cache';
import { defineAction, ok, refuse } from '@/lib/actions/define-action';
import { can } from '@/lib/server/permissions';
import { currentDb } from '@/lib/server/services';
import { endSession, endUserSessions, sessionById } from '@/lib/server/sessions';
import { endSessionSchema, endUserSessionsSchema } from '@/lib/validation/sessions';

export interface EndedSession {
  /** True when the session ended was the one that asked: the browser is signed out. */
  current: boolean;
}

/** Ends one session: a person's own, or (for an admin) anyone's. */
export const endSessionAction = defineAction({
  // Everyone signed in may end their own sessions; whose session it is is checked below.
  permission: 'read',
  resource: 'sessions',
  input: endSessionSchema,
  invalid: 'first-issue',
  context: 'end session',
  audit: {
    action: 'session.end',
    input: ({ sessionId }) => ({ sessionId }),
    target: ({ sessionId }) => sessionId,
  },
  run: async ({ input, actor }) => {
    const db = await currentDb();
    const session = await sessionById(db, input.sessionId);
    const own = session?.userId === actor.id;
    // Someone else's session is not even confirmed to exist unless the person may manage users.
    if (!session || (!own && !can(actor.role, 'users.manage')))
      return refuse('This session is not in your list.', { status: 404 });
    if (session.endedAt) return refuse('This session has already ended.', { status: 409 });
    await endSession(db, session.id, own ? 'ended-by-user' : 'ended-by-admin');
    revalidatePath('/account/sessions');
    return ok<EndedSession>({ current: session.id === actor.sessionId });
  },
});

/** An admin ends every session of a user (the current session of the admin asking is kept). */
export const endUserSessionsAction = defineAction({
  permission: 'users.manage',
  resource: 'users',
  input: endUserSessionsSchema,
  invalid: 'first-issue',
  context: 'end user sessions',
  audit: {
    action: 'session.end',
    input: ({ userId }, data?: { ended: number }) => ({ userId, all: true, ended: data?.ended ?? 0 }),
    target: ({ userId }) => userId,
  },
  run: async ({ input, actor }) => {
    const ended = await endUserSessions(
      await currentDb(),
      input.userId,
      input.userId === actor.id ? 'ended-by-user' : 'ended-by-admin',
      input.userId === actor.id ? actor.sessionId : undefined,
    );
    revalidatePath('/account/sessions');
    return ok({ ended: ended.length });
  },
});
