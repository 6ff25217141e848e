import 'server-only';
// A manual resolution nobody confirmed is discarded.
import { and, eq } from 'drizzle-orm';
import { operationRequests } from '@/lib/db/schema';
import { operationType } from '../../operations/registry';
import type { EngineContext } from '../context';
import { proposalOf } from '../queries';
import { type EngineActor, fail } from '../types';

export async function discardResolution(
  ctx: EngineContext,
  { actor, id }: { actor: EngineActor; id: string },
) {
  const { db, now, audit, event, findRequest, mayAct } = ctx;
  const row = await findRequest(id);
  if (!row) return fail('No such request.', 404);
  const type = operationType(row.type);
  if (!type || !(await mayAct(actor, type.permissions.approve)))
    return fail('You do not have permission to do this.', 403);
  const proposal = proposalOf(row);
  if (!proposal || !(row.status === 'OUTCOME_UNKNOWN' || row.status === 'SUBMITTED') || row.confirmedAbsentAt)
    return fail('There is no open resolution to discard.');
  await db
    .update(operationRequests)
    .set({ resolutionProposal: null, updatedAt: now() })
    .where(and(eq(operationRequests.id, id), eq(operationRequests.status, row.status)));
  await event(id, 'resolution_discarded', actor.email, { verdict: proposal.verdict });
  await audit(actor, `${type.key}.resolve.discard`, 'success', id, { verdict: proposal.verdict });
  return { ok: true as const, data: { status: row.status } };
}
