import 'server-only';
// Approving or rejecting a request: the checks before it, the second factor, the decision and what follows it
// (the requester told, the final approval's claim and submission).
import { isTokenActorId } from '@/lib/approvals/service-tokens';
import type { OperationRequestRow } from '@/lib/db/schema';
import { operationType } from '../../operations/registry';
import type { EngineContext } from '../context';
import { claim } from '../submission/claim';
import { runSubmission } from '../submission/send';
import { type DecisionProof, type EngineActor, fail, PROOF_REQUIRED, SYSTEM_ACTOR } from '../types';
import { type Decision, type DecisionRequest, decideInTransaction, gate } from './decision';
import { DestinationRefused, LimitRefused, limitRefusal } from './shared';

/** An approver's decision: `approve` and `reject` are this with their verdict. */
export async function decide(
  ctx: EngineContext,
  {
    actor,
    id,
    verdict,
    reason,
    twoFactorCode,
    proof,
  }: {
    actor: EngineActor;
    id: string;
    verdict: 'approve' | 'reject';
    reason?: string;
    twoFactorCode?: string;
    proof?: DecisionProof;
  },
) {
  const { db, now, audit, notify, findRequest, mayAct, notifyApprovers, alerts } = ctx;
  if (!/^[0-9a-f-]{36}$/i.test(id)) return fail('No such request.', 404);
  // An API token's permission is its token's: checked before the decision, as for any other command. A
  // person's role is read inside the decision's transaction, with the row the decision locks.
  const token = isTokenActorId(actor.id);
  if (token) {
    const before = await findRequest(id);
    if (!before) return fail('No such request.', 404);
    const type = operationType(before.type);
    if (!type) return fail('Unknown operation type.', 422);
    if (!(await mayAct(actor, type.permissions.approve))) {
      await audit(actor, `${type.key}.${verdict}`, 'denied', id);
      return fail('You do not have permission to do this.', 403);
    }
  }
  const at = now();
  // The request as the decision read it, under its lock.
  let current: OperationRequestRow | undefined;
  let decision: Decision;
  const request: DecisionRequest = { actor, id, verdict, reason, token, at };
  if (proof) {
    // Read first, without a lock: a decision refused anyway says why without asking for the second factor.
    // The transaction below checks everything again under the request's lock.
    const before = await findRequest(id);
    const refused = before ? await gate(db, request, before, true) : { kind: 'missing' as const };
    if (refused?.kind === 'expired') return fail('This request has expired and can no longer be approved.');
    if (refused) {
      current = before;
      decision = refused;
    } else if (!(await proof())) return fail(PROOF_REQUIRED, 401);
  }
  try {
    decision ??= await decideInTransaction(ctx, request, (row) => {
      current = row;
    });
  } catch (error) {
    if (error instanceof DestinationRefused && current) {
      await audit(actor, `${current.type}.${verdict}`, 'refused', id, { reason: 'destination' });
      return fail(`${error.message} The approval was not recorded.`, 422);
    }
    if (!(error instanceof LimitRefused) || !current) throw error;
    await audit(actor, `${current.type}.${verdict}`, 'refused', id, {
      reason: 'spending limit',
      rule: error.check.refusedBy?.ruleId ?? null,
    });
    return { ...limitRefusal(error.check), error: `${error.message} The approval was not recorded.` };
  }
  if (decision.kind === 'missing' || !current) return fail('No such request.', 404);
  if (decision.kind === 'unknown-type') return fail('Unknown operation type.', 422);
  const auditAction = `${current.type}.${verdict}`;
  switch (decision.kind) {
    case 'denied':
      await audit(actor, auditAction, 'denied', id);
      return fail('You do not have permission to do this.', 403);
    case 'own':
      await audit(actor, auditAction, 'denied', id, { reason: 'own request' });
      return fail('You cannot approve or reject your own request.', 403);
    case 'not-independent':
      await audit(actor, auditAction, 'denied', id, { reason: 'not independent of the other parties' });
      return fail(decision.sentence, 403);
    case 'not-open':
      return fail(
        `This request is no longer waiting for approval (${decision.status.replace(/_/g, ' ').toLowerCase()}).`,
      );
    case 'expired':
      await audit(actor, auditAction, 'denied', id, { reason: 'expired' });
      await notify(
        current.requesterId,
        id,
        `Your request expired before it was approved: ${current.summary}`,
      );
      await alerts.requestFailed(current, 'Your request expired before it was approved', 'expired');
      return fail('This request has expired and can no longer be approved.');
    case 'twice':
      return fail('You have already decided on this request; one person counts once.');
    case 'recorded':
      break;
  }
  await audit(actor, auditAction, 'success', id, reason ? { reason } : { approvals: decision.approvals });
  if (decision.rejected) {
    await notify(
      current.requesterId,
      id,
      `Your request was rejected by ${actor.email}: ${reason ?? ''}`.trim(),
    );
    await alerts.requestFailed(
      current,
      `Your request was rejected by ${actor.email}${reason ? `: ${reason}` : ''}`,
      'rejected',
    );
    return { ok: true as const, data: { status: 'REJECTED' as string } };
  }
  if (decision.raisedTo !== undefined)
    await notifyApprovers(
      current,
      `A spending limit is now broken: this request needs ${decision.raisedTo} approvals (${current.summary}).`,
    );
  if (!decision.approved) return { ok: true as const, data: { status: 'PENDING_APPROVAL' as string } };
  const approved = {
    requestId: id,
    kind: 'fully_approved',
    actorEmail: null,
    detail: { approvals: decision.approvals },
    at: now(),
  };
  await alerts.requestReady(current);
  const approvedRow = current;
  // The final approval's event (whether or not the freeze lets the request go now), and the claim.
  const claimed = await db.transaction((tx) =>
    claim(ctx, tx, id, approvedRow.type, SYSTEM_ACTOR, approvedRow, approved),
  );
  // Not claimed: the freeze holds it, and lifting the freeze sends it.
  const after = claimed
    ? await runSubmission(ctx, claimed.row, SYSTEM_ACTOR, twoFactorCode, claimed)
    : (await findRequest(id))?.status;
  return { ok: true as const, data: { status: after ?? 'APPROVED' } };
}
