'use server';
// Decisions on approval requests. The approval engine audits every step itself, so these actions leave the
// audit out; the permission is the one of the request's operation kind.
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { type ActionResult, defineAction, ok } from '@/lib/actions/define-action';
import { getApprovalEngine } from '@/lib/server/approvals';
import { operationType } from '@/lib/server/approvals/registry';
import type { Action } from '@/lib/server/permissions';
import { approveSchema, rejectSchema, requestIdSchema, resubmitSchema } from '@/lib/validation/approvals';
import { resolutionSchema } from '@/lib/validation/resolution';

export interface DecisionResult {
  status: string;
}

/** The approve permission of the request's operation kind (withdraw.approve, withdrawSign.approve, ...). */
async function approvePermissionOf({ requestId }: { requestId: string }): Promise<Action> {
  const type = await (await getApprovalEngine()).typeOf(requestId);
  return (type && operationType(type)?.permissions.approve) || 'withdraw.approve';
}

/** The request permission of the request's operation kind: only those who may ask may withdraw a request. */
async function requestPermissionOf({ requestId }: { requestId: string }): Promise<Action> {
  const type = await (await getApprovalEngine()).typeOf(requestId);
  return (type && operationType(type)?.permissions.request) || 'withdraw.request';
}

const targetOf = ({ requestId }: { requestId: string }) => requestId;

/**
 * What a decision's second-factor proof is bound to: the decision, its own inputs and the request's payload hash.
 * A proof made for one request, one verdict or one version of a request serves no other.
 */
async function decisionProof(decision: string, input: { requestId: string } & Record<string, unknown>) {
  const payloadHash = await (await getApprovalEngine()).payloadHashOf(input.requestId);
  return { decision, ...input, payloadHash: payloadHash ?? null };
}

/** The engine's answer as the page reads it; the approvals list is rendered again whatever the outcome. */
function decided(
  result: { ok: true; data: DecisionResult } | { ok: false; error: string; status?: number },
): ActionResult<DecisionResult> {
  revalidatePath('/approvals');
  return result.ok
    ? ok(result.data)
    : { ok: false, error: result.error, ...(result.status ? { status: result.status } : {}) };
}

export const approveRequestAction = defineAction({
  permission: approvePermissionOf,
  input: approveSchema,
  invalid: 'first-issue',
  target: targetOf,
  context: 'approve request',
  stepUp: ({ requestId }) => decisionProof('approve', { requestId }),
  stepUpEach: true,
  run: async ({ actor, input: { requestId, twoFactorCode } }) =>
    decided(await (await getApprovalEngine()).approve(actor, requestId, twoFactorCode)),
});

export const rejectRequestAction = defineAction({
  permission: approvePermissionOf,
  input: rejectSchema,
  invalid: 'first-issue',
  target: targetOf,
  context: 'reject request',
  stepUp: ({ requestId, reason }) => decisionProof('reject', { requestId, reason }),
  stepUpEach: true,
  run: async ({ actor, input: { requestId, reason } }) =>
    decided(await (await getApprovalEngine()).reject(actor, requestId, reason)),
});

export const resubmitRequestAction = defineAction({
  permission: approvePermissionOf,
  input: resubmitSchema,
  invalid: 'first-issue',
  target: targetOf,
  context: 'resubmit request',
  stepUp: ({ requestId }) => decisionProof('resubmit', { requestId }),
  stepUpEach: true,
  run: async ({ actor, input: { requestId, twoFactorCode, acknowledged } }) =>
    decided(
      await (await getApprovalEngine()).resubmit(actor, requestId, twoFactorCode, {
        acknowledged: acknowledged === true,
      }),
    ),
});

/** Looks the request up at the custody service now; any signed-in person may ask (it changes nothing). */
export const checkRequestAction = defineAction({
  permission: 'read',
  input: requestIdSchema,
  invalid: 'first-issue',
  target: targetOf,
  context: 'check request',
  run: async ({ actor, input: { requestId } }) =>
    decided(await (await getApprovalEngine()).checkNow(actor, requestId)),
});

export const proposeResolutionAction = defineAction({
  permission: approvePermissionOf,
  input: resolutionSchema,
  invalid: 'first-issue',
  target: targetOf,
  context: 'propose resolution',
  stepUp: ({ requestId, verdict, transactionIds }) =>
    decisionProof('propose resolution', { requestId, verdict, transactionIds }),
  stepUpEach: true,
  run: async ({ actor, input: { requestId, verdict, transactionIds, note } }) =>
    decided(
      await (await getApprovalEngine()).proposeResolution(actor, requestId, {
        verdict,
        transactionIds: transactionIds.map((t) => t.value),
        note,
      }),
    ),
});

export const confirmResolutionAction = defineAction({
  permission: approvePermissionOf,
  input: requestIdSchema,
  invalid: 'first-issue',
  target: targetOf,
  context: 'confirm resolution',
  stepUp: ({ requestId }) => decisionProof('confirm resolution', { requestId }),
  stepUpEach: true,
  run: async ({ actor, input: { requestId } }) =>
    decided(await (await getApprovalEngine()).confirmResolution(actor, requestId)),
});

export const discardResolutionAction = defineAction({
  permission: approvePermissionOf,
  input: requestIdSchema,
  invalid: 'first-issue',
  target: targetOf,
  context: 'discard resolution',
  run: async ({ actor, input: { requestId } }) =>
    decided(await (await getApprovalEngine()).discardResolution(actor, requestId)),
});

export const cancelRequestAction = defineAction({
  permission: requestPermissionOf,
  input: requestIdSchema,
  invalid: 'first-issue',
  target: targetOf,
  context: 'cancel request',
  run: async ({ actor, input: { requestId } }) =>
    decided(await (await getApprovalEngine()).cancel(actor, requestId)),
});

export const markNotificationsReadAction = defineAction({
  permission: 'read',
  input: z.undefined(),
  context: 'mark notifications read',
  run: async ({ actor }) => {
    await (await getApprovalEngine()).markNotificationsRead(actor.id);
    return ok(undefined);
  },
});
