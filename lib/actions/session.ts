'use server';
import { signOut } from '@/lib/server/auth';
import { audit, currentActor } from '@/lib/server/guard';

/**
 * Signing out ends in a redirect to the sign-in page, which Next carries as a thrown signal: it stays a plain
 * action, since the action wrapper turns anything thrown into a result. It needs no permission: whoever is
 * signed in may leave, and nobody else has a session to end.
 */
export async function signOutAction(): Promise<void> {
  const actor = await currentActor();
  if (actor) await audit(actor, 'auth.sign_out', 'success');
  await signOut({ redirectTo: '/sign-in' });
}
