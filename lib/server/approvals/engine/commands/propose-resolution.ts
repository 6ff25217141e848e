import 'server-only';
// One person records what the service's own dashboard shows; a second must confirm it.
import { and, eq, isNull } from 'drizzle-orm';
import type { ResolutionVerdict } from '@/lib/approvals/types';
import { operationRequests } from '@/lib/db/schema';
import { operationType } from '../../operations/registry';
import type { EngineContext } from '../context';
import { abilities } from '../queries';
import {
  type DecisionProof,
  type EngineActor,
  fail,
  PROOF_REQUIRED,
  RESOLUTION_WORDS,
  type ResolutionProposal,
  utcTime,
} from '../types';

/**
 * One person records what the service's own dashboard shows ("paid, transaction X", "not paid", "failed");
 * a second person confirms it before anything changes. Both steps are audited.
 */
export async function proposeResolution(
  ctx: EngineContext,
  {
    actor,
    id,
    input,
    proof,
  }: {
    actor: EngineActor;
    id: string;
    input: { verdict: ResolutionVerdict; transactionIds?: string[]; note: string };
    proof?: DecisionProof;
  },
) {
  const { db, now, audit, event, findRequest, mayAct, itemsOf, windowEndOf, notifyApprovers } = ctx;
  const row = await findRequest(id);
  if (!row) return fail('No such request.', 404);
  const type = operationType(row.type);
  if (!type) return fail('Unknown operation type.', 422);
  if (!(await mayAct(actor, type.permissions.approve))) {
    await audit(actor, `${type.key}.resolve`, 'denied', id);
    return fail('You do not have permission to do this.', 403);
  }
  const can = await abilities(ctx, actor, row, []);
  if (!can.canProposeResolution) return fail('This request cannot be resolved by hand now.');
  if (!can.resolutionVerdicts.includes(input.verdict))
    return fail(
      input.verdict === 'not_paid'
        ? `"Not paid" can be recorded after ${utcTime(windowEndOf(row))}: until then a late execution is still possible.`
        : 'That resolution does not apply to this request.',
      422,
    );
  // "Paid" settles every item; a kind sent in several calls with calls never sent would end without them.
  if (input.verdict === 'paid' && type.unsent(row.result).length > 0)
    return fail(
      'Some batches of this request were never sent, so "paid" cannot close it. Use "Check now" to let the console find the batch in doubt by its references.',
      422,
    );
  const items = await itemsOf(id);
  const transactionIds = (input.transactionIds ?? []).map((t) => t.trim());
  if (input.verdict === 'paid' && (transactionIds.length !== items.length || transactionIds.some((t) => !t)))
    return {
      ok: false as const,
      error: 'Give the transaction id of each payment, as the service shows it.',
      status: 422,
      fieldErrors: { transactionIds: 'Give the transaction id of each payment.' },
    };
  if (proof && !(await proof())) return fail(PROOF_REQUIRED, 401);
  const proposal: ResolutionProposal = {
    verdict: input.verdict,
    ...(input.verdict === 'paid' ? { transactionIds } : {}),
    note: input.note,
    byId: actor.id,
    byEmail: actor.email,
    at: now().toISOString(),
    status: row.status,
  };
  const [stored] = await db
    .update(operationRequests)
    .set({ resolutionProposal: { ...proposal }, updatedAt: now() })
    .where(
      and(
        eq(operationRequests.id, id),
        eq(operationRequests.status, row.status),
        isNull(operationRequests.resolutionProposal),
      ),
    )
    .returning({ id: operationRequests.id });
  if (!stored) return fail('Someone else recorded a resolution first; reload the request.');
  await event(id, 'resolution_proposed', actor.email, {
    verdict: input.verdict,
    transactionIds: proposal.transactionIds ?? [],
    note: input.note,
  });
  await audit(actor, `${type.key}.resolve.propose`, 'success', id, {
    verdict: input.verdict,
    transactionIds: proposal.transactionIds ?? [],
    note: input.note,
  });
  await notifyApprovers(
    row,
    `${actor.email} recorded "${RESOLUTION_WORDS[input.verdict]}" for a request; a second person must confirm it (${row.summary}).`,
  );
  return { ok: true as const, data: { status: row.status } };
}
