import 'server-only';
// Reading requests: lists, a request with its approvals, items and events, and what a person may do with it.
import { and, asc, desc, eq, inArray, isNull, ne, notExists, type SQL, sql } from 'drizzle-orm';
import { IN_PROGRESS_STATUSES } from '@/lib/approvals/statuses';
import type { ResolutionVerdict } from '@/lib/approvals/types';
import {
  notifications,
  type OperationRequestRow,
  operationApprovals,
  operationEvents,
  operationRequests,
} from '@/lib/db/schema';
import { can } from '../../permissions';
import { independenceRefusal } from '../independence';
import { OPERATIONS, operationType } from '../operations/registry';
import { isExpired } from '../policy';
import type { EngineContext } from './context';
import type { EngineActor, ResolutionProposal } from './types';

export async function view(ctx: EngineContext, id: string) {
  const { db, findRequest, itemsOf } = ctx;
  const row = await findRequest(id);
  if (!row) return undefined;
  const [approvals, items, events] = await Promise.all([
    db
      .select()
      .from(operationApprovals)
      .where(eq(operationApprovals.requestId, id))
      .orderBy(asc(operationApprovals.createdAt)),
    itemsOf(id),
    db
      .select()
      .from(operationEvents)
      .where(eq(operationEvents.requestId, id))
      .orderBy(asc(operationEvents.id)),
  ]);
  return { request: row, approvals, items, events };
}

/** What this person may do with the request now (the server checks again when they do it). */
export async function abilities(
  ctx: EngineContext,
  actor: EngineActor,
  row: OperationRequestRow,
  decidedBy: string[],
) {
  const { db, now, mayAct, windowEndOf } = ctx;
  const type = operationType(row.type);
  const mayApprove = type ? await mayAct(actor, type.permissions.approve) : false;
  const own = row.requesterId === actor.id;
  // Someone not independent of the requester or of an approver so far is not offered to decide, and is told why.
  const notIndependent =
    mayApprove && !own ? await independenceRefusal(db, actor.id, row.requesterId, decidedBy) : null;
  const holder = notIndependent !== null;
  const open = row.status === 'PENDING_APPROVAL' && !isExpired(row.expiresAt, now());
  const proposal = proposalOf(row);
  const windowPassed = now().getTime() >= windowEndOf(row).getTime();
  return {
    canApprove: mayApprove && !own && !holder && open && !decidedBy.includes(actor.id),
    canCancel: own && open,
    canResubmit:
      mayApprove &&
      !own &&
      !holder &&
      (row.status === 'SUBMIT_FAILED' ||
        (row.status === 'OUTCOME_UNKNOWN' && row.confirmedAbsentAt !== null)),
    canCheckNow: row.status === 'SUBMITTED' || row.status === 'OUTCOME_UNKNOWN',
    // A manual resolution is for what the service cannot settle: an unknown outcome, or a submitted
    // request whose follow-up gave up.
    canProposeResolution:
      mayApprove &&
      proposal === null &&
      ((row.status === 'OUTCOME_UNKNOWN' && row.confirmedAbsentAt === null) ||
        (row.status === 'SUBMITTED' && row.followUpParkedAt !== null)),
    resolutionVerdicts: resolutionVerdictsFor(row, windowPassed),
    // Two people other than the requester settle what happened to the requester's money.
    canConfirmResolution: mayApprove && !own && !holder && proposal !== null && proposal.byId !== actor.id,
    canDiscardResolution: mayApprove && proposal !== null,
    notIndependent,
  };
}

export function proposalOf(row: OperationRequestRow): ResolutionProposal | null {
  const p = row.resolutionProposal as ResolutionProposal | null;
  return p && typeof p.verdict === 'string' ? p : null;
}

/** "not paid" only after the window: before it a late execution is still plausible. */
function resolutionVerdictsFor(row: OperationRequestRow, windowPassed: boolean): ResolutionVerdict[] {
  if (row.status === 'OUTCOME_UNKNOWN') return windowPassed ? ['paid', 'not_paid'] : ['paid'];
  if (row.status === 'SUBMITTED') return ['paid', 'failed'];
  return [];
}

type Scope = 'needs-me' | 'open' | 'mine' | 'all';

export async function list(ctx: EngineContext, actor: EngineActor, scope: Scope, limit = 100) {
  const { db, now } = ctx;
  const approvable = Object.entries(await approvableTypes(ctx, actor))
    .filter(([, ok]) => ok)
    .map(([k]) => k);
  const conditions: SQL[] = [];
  if (scope === 'needs-me') {
    if (approvable.length === 0) return [];
    conditions.push(
      eq(operationRequests.status, 'PENDING_APPROVAL'),
      sql`${operationRequests.expiresAt} > ${now()}`,
      ne(operationRequests.requesterId, actor.id),
      inArray(operationRequests.type, approvable),
      notExists(
        db
          .select({ id: operationApprovals.id })
          .from(operationApprovals)
          .where(
            and(
              eq(operationApprovals.requestId, operationRequests.id),
              eq(operationApprovals.approverId, actor.id),
            ),
          ),
      ),
    );
  } else if (scope === 'open') {
    conditions.push(inArray(operationRequests.status, [...IN_PROGRESS_STATUSES]));
  } else if (scope === 'mine') {
    conditions.push(eq(operationRequests.requesterId, actor.id));
  }
  const rows = await db
    .select({
      request: operationRequests,
      approvals:
        // Qualified by hand: inside a subquery drizzle names columns without their table, and a bare "id"
        // would be the approval's own id.
        sql<number>`(select count(*) from "operation_approvals" a where a."request_id" = "operation_requests"."id" and a."decision" = 'approve')`.mapWith(
          Number,
        ),
    })
    .from(operationRequests)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(operationRequests.createdAt))
    .limit(limit);
  return rows;
}

async function approvableTypes(ctx: EngineContext, actor: EngineActor): Promise<Record<string, boolean>> {
  const role = await ctx.currentRole(actor);
  const out: Record<string, boolean> = {};
  for (const type of OPERATIONS) out[type.key] = can(role as never, type.permissions.approve);
  return out;
}

export async function countNeedingApproval(ctx: EngineContext, actor: EngineActor): Promise<number> {
  return (await list(ctx, actor, 'needs-me', 500)).length;
}

export async function listNotifications(ctx: EngineContext, userId: string, limit = 20) {
  return ctx.db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt))
    .limit(limit);
}

export async function markNotificationsRead(ctx: EngineContext, userId: string) {
  await ctx.db
    .update(notifications)
    .set({ readAt: ctx.now() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
}

export async function typeOf(ctx: EngineContext, id: string): Promise<string | undefined> {
  return (await ctx.findRequest(id))?.type;
}

/** The canonical hash of what the request asks for: a decision's second-factor proof is bound to it. */
export async function payloadHashOf(ctx: EngineContext, id: string): Promise<string | undefined> {
  return (await ctx.findRequest(id))?.payloadHash;
}
