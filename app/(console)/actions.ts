'use server';
import { signOut } from '@/lib/server/auth';
import { audit, currentActor } from '@/lib/server/guard';

export async function signOutAction(): Promise<void> {
  const actor = await currentActor();
  if (actor) await audit(actor, 'auth.sign_out', 'success');
  await signOut({ redirectTo: '/sign-in' });
}
