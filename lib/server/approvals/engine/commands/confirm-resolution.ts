import 'server-only';
// The second person confirms a manual resolution: the request and its items settle as recorded.
import { and, eq } from 'drizzle-orm';
import { operationItems, operationRequests } from '@/lib/db/schema';
import { independenceRefusal } from '../../independence';
import { operationType } from '../../operations/registry';
import type { RequestStatus } from '../../states';
import type { EngineContext } from '../context';
import { proposalOf } from '../queries';
import { type DecisionProof, type EngineActor, fail, PROOF_REQUIRED, RESOLUTION_WORDS } from '../types';

export async function confirmResolution(
  ctx: EngineContext,
  { actor, id, proof }: { actor: EngineActor; id: string; proof?: DecisionProof },
) {
  const { db, now, audit, event, transition, findRequest, mayAct, itemsOf, notifyApprovers } = ctx;
  const row = await findRequest(id);
  if (!row) return fail('No such request.', 404);
  const type = operationType(row.type);
  if (!type) return fail('Unknown operation type.', 422);
  if (!(await mayAct(actor, type.permissions.approve))) {
    await audit(actor, `${type.key}.resolve`, 'denied', id);
    return fail('You do not have permission to do this.', 403);
  }
  const proposal = proposalOf(row);
  if (!proposal) return fail('There is no resolution to confirm.');
  if (proposal.byId === actor.id)
    return fail('A second person must confirm the resolution you recorded.', 403);
  if (row.requesterId === actor.id)
    return fail('The requester cannot confirm the resolution of their own request.', 403);
  const standsIn = await independenceRefusal(db, actor.id, row.requesterId, [proposal.byId]);
  if (standsIn) return fail(standsIn, 403);
  if (proposal.status !== row.status) return fail('The request changed since the resolution was recorded.');
  if (proof && !(await proof())) return fail(PROOF_REQUIRED, 401);
  const record = {
    ...proposal,
    confirmedById: actor.id,
    confirmedByEmail: actor.email,
    confirmedAt: now().toISOString(),
  };
  if (proposal.verdict === 'not_paid') {
    const [moved] = await db
      .update(operationRequests)
      .set({
        confirmedAbsentAt: now(),
        resolutionProposal: record,
        nextFollowUpAt: null,
        followUpParkedAt: now(),
        updatedAt: now(),
      })
      .where(and(eq(operationRequests.id, id), eq(operationRequests.status, 'OUTCOME_UNKNOWN')))
      .returning({ id: operationRequests.id });
    if (!moved) return fail('The request changed since the resolution was recorded.');
    await event(id, 'confirmed_absent', actor.email, { manual: true, recordedBy: proposal.byEmail });
  } else {
    const items = await itemsOf(id);
    const status = proposal.verdict === 'paid' ? 'SUCCESS' : 'FAILED';
    const moved = await transition(id, proposal.status as RequestStatus, status, {
      resolutionProposal: record,
      nextFollowUpAt: null,
      followUpParkedAt: null,
    });
    if (!moved) return fail('The request changed since the resolution was recorded.');
    for (const item of items) {
      await db
        .update(operationItems)
        .set({
          status,
          ...(proposal.transactionIds?.[item.index]
            ? { transactionId: proposal.transactionIds[item.index] }
            : {}),
          updatedAt: now(),
        })
        .where(eq(operationItems.id, item.id));
    }
    await event(id, status === 'SUCCESS' ? 'succeeded' : 'failed', actor.email, { manual: true });
  }
  await event(id, 'resolution_confirmed', actor.email, {
    verdict: proposal.verdict,
    recordedBy: proposal.byEmail,
  });
  await audit(actor, `${type.key}.resolve.confirm`, 'success', id, {
    verdict: proposal.verdict,
    recordedBy: proposal.byEmail,
    transactionIds: proposal.transactionIds ?? [],
  });
  await notifyApprovers(
    row,
    `"${RESOLUTION_WORDS[proposal.verdict]}" was confirmed by ${actor.email} (recorded by ${proposal.byEmail}): ${row.summary}`,
  );
  return { ok: true as const, data: { status: (await findRequest(id))?.status ?? row.status } };
}
