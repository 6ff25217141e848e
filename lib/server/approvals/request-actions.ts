import 'server-only';
import { describeFailure } from '../errors';
import type { ActionResult, Actor } from '../guard';
import { getApprovalEngine } from './index';

/** What a request form's server-side check yields: who asks, for which wallet, with which validated payload. */
export type CheckedOperation =
  | { ok: true; actor: Actor; walletId: string; kind: string; payload: unknown }
  // biome-ignore lint/suspicious/noExplicitAny: the failure carries the action's own result type.
  | { ok: false; result: ActionResult<any> };

/** Creates the approval request once everything validates; nothing is sent upstream here. */
export async function createOperationRequest(
  check: () => Promise<CheckedOperation>,
  label: string,
): Promise<ActionResult<{ id: string }>> {
  try {
    const checked = await check();
    if (!checked.ok) return checked.result;
    const engine = await getApprovalEngine();
    const created = await engine.create(checked.actor, checked.kind, checked.walletId, checked.payload);
    if (!created.ok) return created;
    return { ok: true, data: { id: created.data.id } };
  } catch (error) {
    return { ok: false, error: describeFailure(error, null, `${label} request`).message };
  }
}
