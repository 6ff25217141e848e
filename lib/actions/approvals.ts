'use server';
// Decisions on approval requests. The approval engine audits every step itself, so these actions leave the
// audit out; the permission is the one of the request's operation kind.
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { type ActionResult, type Actor, checkStepUp, defineAction, ok } from '@/lib/actions/define-action';
import { getApprovalEngine } from '@/lib/server/approvals';
import type { DecisionProof } from '@/lib/server/approvals/engine';
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

type EngineOutcome = { ok: true; data: DecisionResult } | { ok: false; error: string; status?: number };

/** The engine's answer as the page reads it; the approvals list is rendered again whatever the outcome. */
function decided(result: EngineOutcome): ActionResult<DecisionResult> {
  revalidatePath('/approvals');
  return result.ok
    ? ok(result.data)
    : { ok: false, error: result.error, ...(result.status ? { status: result.status } : {}) };
}

/**
 * A decision with its own second-factor proof. The engine asks for the proof once nothing else refuses the decision
 * (a requester, an expired request or a person not independent is told so without a code) and just before it is
 * recorded; the proof is bound to the decision, its own inputs and the request's payload hash, so a check made for
 * one request, one verdict or one version of a request serves no other. No proof: the step-up refusal, with the
 * payload hash the person's check is to be bound to.
 */
async function decideWithProof(
  actor: Actor,
  context: string,
  input: { requestId: string } & Record<string, unknown>,
  decide: (proof: DecisionProof) => Promise<EngineOutcome>,
): Promise<ActionResult<DecisionResult>> {
  let asked: ActionResult<never> | null = null;
  const result = await decide(async () => {
    const payloadHash = await (await getApprovalEngine()).payloadHashOf(input.requestId);
    asked = await checkStepUp(
      actor,
      context,
      { ...input, payloadHash: payloadHash ?? null },
      input.requestId,
      {
        each: true,
      },
    );
    return asked === null;
  });
  return asked ?? decided(result);
}

export const approveRequestAction = defineAction({
  permission: approvePermissionOf,
  input: approveSchema,
  invalid: 'first-issue',
  target: targetOf,
  context: 'approve request',
  run: async ({ actor, input: { requestId, twoFactorCode } }) =>
    decideWithProof(actor, 'approve request', { requestId }, async (proof) =>
      (await getApprovalEngine()).approve(actor, requestId, twoFactorCode, proof),
    ),
});

export const rejectRequestAction = defineAction({
  permission: approvePermissionOf,
  input: rejectSchema,
  invalid: 'first-issue',
  target: targetOf,
  context: 'reject request',
  run: async ({ actor, input: { requestId, reason } }) =>
    decideWithProof(actor, 'reject request', { requestId, reason }, async (proof) =>
      (await getApprovalEngine()).reject(actor, requestId, reason, proof),
    ),
});

export const resubmitRequestAction = defineAction({
  permission: approvePermissionOf,
  input: resubmitSchema,
  invalid: 'first-issue',
  target: targetOf,
  context: 'resubmit request',
  run: async ({ actor, input: { requestId, twoFactorCode, acknowledged } }) =>
    decideWithProof(actor, 'resubmit request', { requestId }, async (proof) =>
      (await getApprovalEngine()).resubmit(actor, requestId, twoFactorCode, {
        acknowledged: acknowledged === true,
        proof,
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
  run: async ({ actor, input: { requestId, verdict, transactionIds, note } }) =>
    decideWithProof(actor, 'propose resolution', { requestId, verdict, transactionIds }, async (proof) =>
      (await getApprovalEngine()).proposeResolution(
        actor,
        requestId,
        { verdict, transactionIds: transactionIds.map((t) => t.value), note },
        proof,
      ),
    ),
});

export const confirmResolutionAction = defineAction({
  permission: approvePermissionOf,
  input: requestIdSchema,
  invalid: 'first-issue',
  target: targetOf,
  context: 'confirm resolution',
  run: async ({ actor, input: { requestId } }) =>
    decideWithProof(actor, 'confirm resolution', { requestId }, async (proof) =>
      (await getApprovalEngine()).confirmResolution(actor, requestId, proof),
    ),
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
