import 'server-only';
// Whether a request with a caller's chosen id exists.
import type { EngineContext } from '../context';

/** Whether a request with this id exists (a caller that chose the id looks before making it again). */
export async function hasRequest(ctx: EngineContext, { id }: { id: string }): Promise<boolean> {
  const { findRequest } = ctx;
  return Boolean(await findRequest(id));
}
