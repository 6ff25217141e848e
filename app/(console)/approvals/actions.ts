'use server';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getApprovalEngine } from '@/lib/server/approvals';
import { operationType } from '@/lib/server/approvals/registry';
import { describeFailure } from '@/lib/server/errors';
import { type ActionResult, type Actor, authorize } from '@/lib/server/guard';
import type { Action } from '@/lib/server/permissions';
import { resolutionSchema } from '@/lib/validation/resolution';

const requestIdSchema = z.object({ requestId: z.uuid({ message: 'Unknown request.' }) });
const rejectSchema = requestIdSchema.extend({
  reason: z
    .string()
    .trim()
    .min(3, { message: 'Give a reason of at least 3 characters.' })
    .max(500, { message: 'Keep the reason under 500 characters.' }),
});

// The custody service's two-factor code (contract write and sign): passed to this one submission only.
const withCodeSchema = requestIdSchema.extend({
  twoFactorCode: z
    .string()
    .regex(/^\d{6}$/, { message: 'Enter the 6-digit two-factor code.' })
    .optional(),
});

/** The approve permission of the request's operation type (withdraw.approve, withdrawSign.approve, ...). */
async function approveActionOf(requestId: string): Promise<Action> {
  const engine = await getApprovalEngine();
  const type = await engine.typeOf(requestId);
  return (type && operationType(type)?.permissions.approve) || 'withdraw.approve';
}

type Outcome = ActionResult<{ status: string }>;

async function run(
  input: unknown,
  schema: typeof requestIdSchema | typeof rejectSchema | typeof withCodeSchema,
  permission: (id: string) => Promise<Action>,
  act: (
    actor: Actor,
    data: { requestId: string; reason?: string; twoFactorCode?: string },
  ) => Promise<{ ok: true; data: { status: string } } | { ok: false; error: string; status?: number }>,
): Promise<Outcome> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      error: issue?.message ?? 'Invalid input.',
      fieldErrors: { [String(issue?.path[0] ?? 'form')]: issue?.message ?? '' },
    };
  }
  const authz = await authorize(await permission(parsed.data.requestId), parsed.data.requestId);
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  try {
    const result = await act(authz.actor, parsed.data);
    revalidatePath('/approvals');
    return result.ok
      ? result
      : { ok: false, error: result.error, ...(result.status ? { status: result.status } : {}) };
  } catch (error) {
    return { ok: false, error: describeFailure(error, authz.actor.requestId, 'approvals action').message };
  }
}

export async function approveRequestAction(input: unknown): Promise<Outcome> {
  return run(input, withCodeSchema, approveActionOf, async (actor, { requestId, twoFactorCode }) =>
    (await getApprovalEngine()).approve(actor, requestId, twoFactorCode),
  );
}

export async function rejectRequestAction(input: unknown): Promise<Outcome> {
  return run(input, rejectSchema, approveActionOf, async (actor, { requestId, reason }) =>
    (await getApprovalEngine()).reject(actor, requestId, reason ?? ''),
  );
}

const resubmitSchema = withCodeSchema.extend({ acknowledged: z.boolean().optional() });

export async function resubmitRequestAction(input: unknown): Promise<Outcome> {
  const parsed = resubmitSchema.safeParse(input);
  const acknowledged = parsed.success && parsed.data.acknowledged === true;
  return run(input, withCodeSchema, approveActionOf, async (actor, { requestId, twoFactorCode }) =>
    (await getApprovalEngine()).resubmit(actor, requestId, twoFactorCode, { acknowledged }),
  );
}

/** Looks the request up at the custody service now; any signed-in person may ask (it changes nothing). */
export async function checkRequestAction(input: unknown): Promise<Outcome> {
  return run(
    input,
    requestIdSchema,
    async () => 'read',
    async (actor, { requestId }) => (await getApprovalEngine()).checkNow(actor, requestId),
  );
}

export async function proposeResolutionAction(input: unknown): Promise<Outcome> {
  const parsed = resolutionSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[issue.path.join('.') || 'form'] ??= issue.message;
    return { ok: false, error: parsed.error.issues[0]?.message ?? 'Check the form.', fieldErrors };
  }
  const { verdict, transactionIds, note } = parsed.data;
  return run(input, requestIdSchema, approveActionOf, async (actor, { requestId }) =>
    (await getApprovalEngine()).proposeResolution(actor, requestId, {
      verdict,
      transactionIds: transactionIds.map((t) => t.value),
      note,
    }),
  );
}

export async function confirmResolutionAction(input: unknown): Promise<Outcome> {
  return run(input, requestIdSchema, approveActionOf, async (actor, { requestId }) =>
    (await getApprovalEngine()).confirmResolution(actor, requestId),
  );
}

export async function discardResolutionAction(input: unknown): Promise<Outcome> {
  return run(input, requestIdSchema, approveActionOf, async (actor, { requestId }) =>
    (await getApprovalEngine()).discardResolution(actor, requestId),
  );
}

export async function cancelRequestAction(input: unknown): Promise<Outcome> {
  const requestPermission = async (id: string): Promise<Action> => {
    const type = await (await getApprovalEngine()).typeOf(id);
    return (type && operationType(type)?.permissions.request) || 'withdraw.request';
  };
  return run(input, requestIdSchema, requestPermission, async (actor, { requestId }) =>
    (await getApprovalEngine()).cancel(actor, requestId),
  );
}

export async function markNotificationsReadAction(): Promise<ActionResult> {
  const authz = await authorize('read');
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  await (await getApprovalEngine()).markNotificationsRead(authz.actor.id);
  return { ok: true, data: undefined };
}
