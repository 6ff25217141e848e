import 'server-only';
// A person asks the console to look a submitted or unknown request up now.
import type { EngineContext } from '../context';
import { followUpRound } from '../reconciliation/follow-up';
import { type EngineActor, fail } from '../types';

/** A person asks the console to look now (also un-parks a request). */
export async function checkNow(ctx: EngineContext, { actor, id }: { actor: EngineActor; id: string }) {
  const { findRequest, mayAct } = ctx;
  const row = await findRequest(id);
  if (!row) return fail('No such request.', 404);
  if (!(await mayAct(actor, 'read'))) return fail('You do not have permission to do this.', 403);
  if (row.status !== 'SUBMITTED' && row.status !== 'OUTCOME_UNKNOWN')
    return fail('Only a submitted request or one with an unknown outcome is looked up.');
  const status = await followUpRound(ctx, id, { force: true });
  return { ok: true as const, data: { status: status ?? row.status } };
}
