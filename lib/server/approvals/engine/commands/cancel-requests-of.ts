import 'server-only';
// A revoked API token's requests still waiting for approval are cancelled with it.
import { and, eq } from 'drizzle-orm';
import { operationRequests } from '@/lib/db/schema';
import type { EngineContext } from '../context';
import type { EngineActor } from '../types';

/**
 * A revoked API token's requests still waiting for approval are cancelled with it: a leaked token's requests
 * must not move money once an admin has cut it off. Approved ones were approved by people and go on.
 */
export async function cancelRequestsOf(
  ctx: EngineContext,
  { actor, requesterId, reason }: { actor: EngineActor; requesterId: string; reason: string },
) {
  const { db, audit, event, transition } = ctx;
  const waiting = await db
    .select({ id: operationRequests.id, type: operationRequests.type })
    .from(operationRequests)
    .where(
      and(eq(operationRequests.requesterId, requesterId), eq(operationRequests.status, 'PENDING_APPROVAL')),
    );
  let cancelled = 0;
  for (const row of waiting) {
    if (!(await transition(row.id, 'PENDING_APPROVAL', 'CANCELLED'))) continue;
    await event(row.id, 'cancelled', actor.email, { reason });
    await audit(actor, `${row.type}.cancel`, 'success', row.id, { reason });
    cancelled += 1;
  }
  return cancelled;
}
