import 'server-only';
import { forbidden, redirect } from 'next/navigation';
import { type Actor, currentActor } from './guard';
import { type Action, can } from './permissions';

/** For server pages: the signed-in actor with the permission, else sign-in or the forbidden page. */
export async function requirePage(action: Action): Promise<Actor> {
  const actor = await currentActor();
  if (!actor) redirect('/sign-in');
  if (!can(actor.role, action)) forbidden();
  return actor;
}
