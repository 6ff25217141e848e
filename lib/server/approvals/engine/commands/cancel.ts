import 'server-only';
// A requester withdraws their own request while it waits for approval.
import type { EngineContext } from '../context';
import { type EngineActor, fail } from '../types';

export async function cancel(ctx: EngineContext, { actor, id }: { actor: EngineActor; id: string }) {
  const { audit, event, transition, findRequest } = ctx;
  const row = await findRequest(id);
  if (!row) return fail('No such request.', 404);
  if (row.requesterId !== actor.id) return fail('Only the requester can cancel a request.', 403);
  const moved = await transition(id, 'PENDING_APPROVAL', 'CANCELLED');
  if (!moved) return fail('Only a request waiting for approval can be cancelled.');
  await event(id, 'cancelled', actor.email);
  await audit(actor, `${row.type}.cancel`, 'success', id);
  return { ok: true as const, data: { status: 'CANCELLED' } };
}
