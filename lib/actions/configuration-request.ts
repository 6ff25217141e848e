import 'server-only';
// The step every configuration action ends with: the change becomes a request a second admin approves.
import { revalidatePath } from 'next/cache';
import { CONSOLE_SCOPE } from '@/lib/approvals/configuration';
import { getApprovalEngine } from '@/lib/server/approvals';
import { type ActionResult, type Actor, ok, refuse } from './define-action';

/** A configuration change waiting for a second admin. */
export interface RequestedChange {
  kind: 'requested';
  id: string;
  summary: string;
}

/** Files the request (the engine checks the kind's permission and audits it); `field` takes a refusal. */
export async function requestConfigurationChange(
  actor: Actor,
  kind: string,
  payload: Record<string, unknown>,
  field?: string,
): Promise<ActionResult<RequestedChange>> {
  const created = await (await getApprovalEngine()).create(actor, kind, CONSOLE_SCOPE, payload);
  if (!created.ok)
    return refuse(created.error, {
      ...(field ? { fieldErrors: { [field]: created.error } } : {}),
      status: created.status,
    });
  revalidatePath('/admin', 'layout');
  revalidatePath('/approvals');
  return ok({ kind: 'requested', id: created.data.id, summary: created.data.summary });
}

/**
 * Files a change of a wallet's settings at the custody service (a settlement rule, the whitelist, a beneficiary):
 * sent to the service only when a second admin approves. `field` takes a refusal.
 */
export async function requestWalletChange(
  actor: Actor,
  kind: string,
  walletId: string,
  payload: Record<string, unknown>,
  field?: string,
): Promise<ActionResult<RequestedChange>> {
  const created = await (await getApprovalEngine()).create(actor, kind, walletId, payload);
  if (!created.ok)
    return refuse(created.error, {
      ...(field ? { fieldErrors: { [field]: created.error } } : {}),
      status: created.status,
    });
  revalidatePath('/approvals');
  return ok({ kind: 'requested', id: created.data.id, summary: created.data.summary });
}
