import 'server-only';
// Requests as the browser may see them: no secrets live in a request (API keys never enter the engine), and
// dates become ISO strings.
import type { ConfigurationResult, InvitationStatus } from '@/lib/approvals/configuration';
import { isOperationReview, OPERATION_KIND_TRAITS, traitsOf } from '@/lib/approvals/kinds';
import type { PayoutResult } from '@/lib/approvals/payouts';
import type { RequestDetailDto, RequestSummaryDto } from '@/lib/approvals/requests';
import type { SignOnlyResult } from '@/lib/approvals/withdrawals';
import type { OperationRequestRow, Role } from '@/lib/db/schema';
import { latestInvitations } from '../invitations/store';
import { can } from '../permissions';
import { currentDb } from '../services';
import { findUserById } from '../users';
import type { ApprovalEngine, EngineActor, ResolutionProposal } from './engine';
import { operationType } from './registry';

export function toSummaryDto(row: OperationRequestRow, approvals: number): RequestSummaryDto {
  return {
    id: row.id,
    type: row.type,
    typeLabel: operationType(row.type)?.label ?? row.type,
    status: row.status,
    walletId: row.walletId,
    summary: row.summary,
    amountUsd: row.amountUsd === null ? null : Number(row.amountUsd),
    requesterEmail: row.requesterEmail,
    approvals,
    requiredApprovals: row.requiredApprovals,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * What a configuration change left, without the sealed secret it may keep (a new API token): that one is taken
 * once by the requester through its own action. A new user or a reset also says where the emailed link stands
 * now (never the link).
 */
async function configurationResultDto(
  row: OperationRequestRow,
  actor: EngineActor,
): Promise<ConfigurationResult | null> {
  // A configuration kind the console carries out, or one it sends to the custody service (a settlement rule).
  if (traitsOf(row.type)?.result !== 'configuration' || !row.result) return null;
  const { sealed: _sealed, ...result } = row.result as ConfigurationResult & { sealed?: unknown };
  const purpose = row.type === 'userCreate' ? 'invitation' : row.type === 'userReset' ? 'reset' : null;
  if (!purpose || !result.userId) return result;
  const status = await invitationStatus(result.userId, purpose, actor);
  return status ? { ...result, invitationStatus: status } : result;
}

async function invitationStatus(
  userId: string,
  purpose: 'invitation' | 'reset',
  actor: EngineActor,
): Promise<InvitationStatus | null> {
  const db = await currentDb();
  const [latest, user] = await Promise.all([
    latestInvitations(db, [userId]).then((m) => m.get(userId)),
    findUserById(db, userId),
  ]);
  // A later link of another kind (a reset after the invitation) is that request's to show.
  if (!latest || latest.purpose !== purpose || !user) return null;
  return {
    purpose: latest.purpose,
    email: latest.email,
    state: latest.state,
    sentAt: latest.sentAt.toISOString(),
    expiresAt: latest.expiresAt.toISOString(),
    usedAt: latest.usedAt?.toISOString() ?? null,
    error: latest.deliveryError,
    canResend: can(actor.role as Role, 'users.manage') && latest.state !== 'accepted' && !user.disabledAt,
  };
}

function resolutionDto(p: ResolutionProposal | null): RequestDetailDto['resolution'] {
  if (!p || typeof p.verdict !== 'string') return null;
  // Person ids stay on the server; emails name who did what.
  return {
    verdict: p.verdict,
    transactionIds: p.transactionIds ?? [],
    note: p.note,
    byEmail: p.byEmail,
    at: p.at,
    confirmedByEmail: p.confirmedByEmail ?? null,
    confirmedAt: p.confirmedAt ?? null,
  };
}

export async function requestDetail(
  engine: ApprovalEngine,
  actor: EngineActor,
  id: string,
): Promise<RequestDetailDto | null> {
  const view = await engine.view(id);
  if (!view) return null;
  const { request, approvals, items, events } = view;
  // Every review is stored with its kind when the request is created.
  const review = request.review;
  if (!isOperationReview(review)) throw new TypeError(`Request ${request.id} has no review of a known kind.`);
  // What the request's kind keeps of its outcome, and so which field carries it.
  const kept = OPERATION_KIND_TRAITS[review.kind].result;
  const can = await engine.abilities(
    actor,
    request,
    approvals.map((a) => a.approverId),
  );
  return {
    ...toSummaryDto(request, approvals.filter((a) => a.decision === 'approve').length),
    review,
    payloadHash: request.payloadHash,
    lastError: request.lastError,
    rejectReason: request.rejectReason,
    confirmedAbsentAt: request.confirmedAbsentAt?.toISOString() ?? null,
    submitAttempts: request.submitAttempts,
    // A configuration change's result is its own field: pages that read a signing result never see it.
    result: kept === 'configuration' ? null : ((request.result as SignOnlyResult | null) ?? null),
    configurationResult: await configurationResultDto(request, actor),
    payoutResult: kept === 'payoutBatches' ? ((request.result as PayoutResult | null) ?? null) : null,
    decisions: approvals.map((a) => ({
      approverEmail: a.approverEmail,
      role: a.role,
      decision: a.decision,
      reason: a.reason,
      createdAt: a.createdAt.toISOString(),
    })),
    items: items.map((i) => ({
      index: i.index,
      reference: i.reference,
      transactionId: i.transactionId,
      hash: i.hash,
      status: i.status,
      confirmations: i.confirmations,
      error: i.error,
    })),
    timeline: events.map((e) => ({
      id: e.id,
      at: e.at.toISOString(),
      kind: e.kind,
      actorEmail: e.actorEmail,
      detail: e.detail,
    })),
    can: {
      approve: can.canApprove,
      cancel: can.canCancel,
      resubmit: can.canResubmit,
      checkNow: can.canCheckNow,
      proposeResolution: can.canProposeResolution,
      resolutionVerdicts: can.resolutionVerdicts,
      confirmResolution: can.canConfirmResolution,
      discardResolution: can.canDiscardResolution,
      notIndependent: can.notIndependent,
    },
    followUp: {
      lastAttemptAt: request.lastAttemptAt?.toISOString() ?? null,
      lastLookupAt: request.lastLookupAt?.toISOString() ?? null,
      nextAt: request.nextFollowUpAt?.toISOString() ?? null,
      parkedAt: request.followUpParkedAt?.toISOString() ?? null,
      rounds: request.followUpAttempts,
      windowEndsAt: engine.windowEndOf(request).toISOString(),
    },
    duplicates: (request.duplicates as RequestDetailDto['duplicates']) ?? [],
    resolution: resolutionDto(request.resolutionProposal as ResolutionProposal | null),
    frozen: await engine.isFrozen(),
    isRequester: request.requesterId === actor.id,
    requiresTwoFactor: operationType(request.type)?.requiresTwoFactor === true,
  };
}
