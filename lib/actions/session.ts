'use server';
import { signOut } from '@/lib/server/auth';
import { audit, currentActor } from '@/lib/server/guard';
import { currentDb } from '@/lib/server/services';
import { endSession } from '@/lib/server/sessions';

/**
 * Signing out ends in a redirect to the sign-in page, which Next carries as a thrown signal: it stays a plain
 * action, since the action wrapper turns anything thrown into a result. It needs no permission: whoever is
 * signed in may leave, and nobody else has a session to end. The session's row is ended first, so the old
 * cookie is refused everywhere even if someone kept a copy.
 */
export async function signOutAction(): Promise<void> {
  const actor = await currentActor();
  if (actor?.sessionId) await endSession(await currentDb(), actor.sessionId, 'sign-out');
  if (actor) await audit(actor, 'auth.sign_out', 'success', { target: actor.sessionId || null });
  await signOut({ redirectTo: '/sign-in' });
}
