import 'server-only';
// The decision itself: what refuses it before anything is written, and the transaction that records it under the
// request's lock (the final approval checks the spending limits and the address book again, and approves).
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { LimitCheck } from '@/lib/approvals/limits';
import {
  type OperationRequestRow,
  operationApprovals,
  operationEvents,
  operationRequests,
  users,
} from '@/lib/db/schema';
import { can as roleMay } from '../../../permissions';
import { destinationRefusal } from '../../destinations';
import { independenceRefusal } from '../../independence';
import { checkLimits, isLimitedKind, limitsInForce, takeLimitsLock } from '../../limits';
import { operationType } from '../../operations/registry';
import { isExpired } from '../../policy';
import { assertTransition } from '../../states';
import type { EngineContext } from '../context';
import type { EngineActor } from '../types';
import { candidateOf, DestinationRefused, LimitRefused } from './shared';

/** What a decision came to: refused for a reason, or recorded. */
export type Decision =
  | { kind: 'missing' }
  | { kind: 'unknown-type' }
  | { kind: 'denied' }
  | { kind: 'own' }
  | { kind: 'not-independent'; sentence: string }
  | { kind: 'not-open'; status: string }
  | { kind: 'expired' }
  | { kind: 'twice' }
  | { kind: 'recorded'; approvals: number; approved: boolean; rejected: boolean; raisedTo?: number };

/** One person's decision on one request, as the steps of `decide` read it. */
export interface DecisionRequest {
  actor: EngineActor;
  id: string;
  verdict: 'approve' | 'reject';
  reason?: string;
  /** Whether the actor is an API token (its permission was checked before the decision). */
  token: boolean;
  at: Date;
}

/** Whatever refuses this decision before anything is written: permission, own request, independence, state. */
export async function gate(
  reader: EngineContext['db'],
  request: DecisionRequest,
  row: OperationRequestRow,
  dry: boolean,
): Promise<Decision | null> {
  const { actor, id, verdict, token, at } = request;
  const type = operationType(row.type);
  if (!type) return { kind: 'unknown-type' };
  // The person's role now, from the database (a role removed yesterday cannot approve today).
  const [me] = token
    ? [undefined]
    : await reader
        .select({ role: users.role, disabledAt: users.disabledAt })
        .from(users)
        .where(sql`${users.id}::text = ${actor.id}`)
        .limit(1);
  // Rejecting is an approver's decision too: the same permission.
  if (!token && !(me && !me.disabledAt && roleMay(me.role as never, type.permissions.approve)))
    return { kind: 'denied' };
  if (row.requesterId === actor.id) return { kind: 'own' };
  // Four eyes against an insider: an approval counts only from someone independent of the requester and
  // of every approver so far (nobody controls two of them), whatever the kind and whatever the page offered.
  const decided =
    verdict === 'approve' || dry
      ? await reader
          .select({ id: operationApprovals.approverId, decision: operationApprovals.decision })
          .from(operationApprovals)
          .where(eq(operationApprovals.requestId, id))
      : [];
  if (verdict === 'approve') {
    const refusal = await independenceRefusal(
      reader,
      actor.id,
      row.requesterId,
      decided.filter((e) => e.decision === 'approve').map((e) => e.id),
    );
    if (refusal) return { kind: 'not-independent', sentence: refusal };
  }
  if (row.status !== 'PENDING_APPROVAL') return { kind: 'not-open', status: row.status };
  if (isExpired(row.expiresAt, at)) return { kind: 'expired' };
  if (dry && decided.some((e) => e.id === actor.id)) return { kind: 'twice' };
  return null;
}

export async function decideInTransaction(
  ctx: EngineContext,
  request: DecisionRequest,
  read: (row: OperationRequestRow) => void,
): Promise<Decision> {
  const { db } = ctx;
  const { actor, id, verdict, reason, at } = request;
  return db.transaction(async (tx): Promise<Decision> => {
    // Serialises decisions on one request: the count below then sees every earlier approval.
    const [row] = await tx.select().from(operationRequests).where(eq(operationRequests.id, id)).for('update');
    if (!row) return { kind: 'missing' };
    read(row);
    const refused = await gate(tx as unknown as typeof db, request, row, false);
    if (refused?.kind === 'expired') {
      await tx
        .update(operationRequests)
        .set({ status: 'EXPIRED', updatedAt: at })
        .where(and(eq(operationRequests.id, id), eq(operationRequests.status, 'PENDING_APPROVAL')));
      await tx.insert(operationEvents).values({ requestId: id, kind: 'expired', actorEmail: null, at });
      return refused;
    }
    if (refused) return refused;
    const inserted = await tx
      .insert(operationApprovals)
      .values({
        requestId: id,
        approverId: actor.id,
        approverEmail: actor.email,
        role: actor.role,
        decision: verdict,
        reason: reason ?? null,
        createdAt: at,
      })
      .onConflictDoNothing()
      .returning({ id: operationApprovals.id });
    if (inserted.length === 0) return { kind: 'twice' };
    await tx.insert(operationEvents).values({
      requestId: id,
      kind: verdict === 'approve' ? 'approved' : 'rejected',
      actorEmail: actor.email,
      detail: reason ? { reason } : {},
      at,
    });
    if (verdict === 'reject') {
      assertTransition('PENDING_APPROVAL', 'REJECTED');
      await tx
        .update(operationRequests)
        .set({ status: 'REJECTED', rejectReason: reason ?? null, updatedAt: at })
        .where(and(eq(operationRequests.id, id), eq(operationRequests.status, 'PENDING_APPROVAL')));
      return { kind: 'recorded', approvals: 0, approved: false, rejected: true };
    }
    // The count, and whether any spending limit is in force, in one read.
    const [tally] = await tx
      .select({ n: count(), limited: limitsInForce() })
      .from(operationApprovals)
      .where(and(eq(operationApprovals.requestId, id), eq(operationApprovals.decision, 'approve')));
    const approvals = Number(tally?.n ?? 0);
    let approved = false;
    if (approvals >= row.requiredApprovals && isLimitedKind(row.type) && tally?.limited) {
      await takeLimitsLock(tx);
      // The last approval checks the limits again, under the lock, against what is committed now: of two
      // requests approved at the same moment, the second sees the first.
      const limits = await checkLimits(
        tx,
        candidateOf(row.type, row.walletId, row.requesterId, row.payload, row.review),
        at,
        'approval',
        id,
      );
      // Nothing of this approval is kept: the transaction is rolled back.
      if (limits.refusedBy) throw new LimitRefused(limits);
      // The extra approvers already counted in: at creation, or by an earlier check like this one.
      const [raised] = await tx
        .select({ detail: operationEvents.detail })
        .from(operationEvents)
        .where(and(eq(operationEvents.requestId, id), eq(operationEvents.kind, 'limits_rechecked')))
        .orderBy(desc(operationEvents.id))
        .limit(1);
      const before =
        typeof raised?.detail.extraApprovals === 'number'
          ? raised.detail.extraApprovals
          : ((row.review as { limits?: LimitCheck }).limits?.extraApprovals ?? 0);
      const raisedTo = row.requiredApprovals + Math.max(0, limits.extraApprovals - before);
      if (raisedTo > approvals) {
        await tx
          .update(operationRequests)
          .set({ requiredApprovals: raisedTo, updatedAt: at })
          .where(eq(operationRequests.id, id));
        await tx.insert(operationEvents).values({
          requestId: id,
          kind: 'limits_rechecked',
          actorEmail: null,
          detail: {
            requiredApprovals: raisedTo,
            extraApprovals: limits.extraApprovals,
            rules: limits.rows.filter((r) => r.breached).map((r) => r.rule),
          },
          at,
        });
        return { kind: 'recorded', approvals, approved: false, rejected: false, raisedTo };
      }
    }
    if (approvals >= row.requiredApprovals) {
      // Where the money goes, as the address book stands now: an entry changed or removed since the request
      // was made counts as it is. Thrown, so the transaction (this approval with it) is rolled back.
      const refusal = await destinationRefusal(tx, row.type, row.walletId, row.payload, row.review, at);
      if (refusal) throw new DestinationRefused(refusal);
      assertTransition('PENDING_APPROVAL', 'APPROVED');
      const moved = await tx
        .update(operationRequests)
        .set({ status: 'APPROVED', updatedAt: at })
        .where(and(eq(operationRequests.id, id), eq(operationRequests.status, 'PENDING_APPROVAL')))
        .returning({ id: operationRequests.id });
      approved = moved.length === 1;
    }
    if (approved) read({ ...row, status: 'APPROVED', updatedAt: at });
    return { kind: 'recorded', approvals, approved, rejected: false };
  });
}
