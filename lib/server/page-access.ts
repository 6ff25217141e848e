import 'server-only';
// Who may open each console page, and which ids in its path must exist: checked by the console layout before
// anything streams, so a page a role may not open answers 403 and an unknown id answers 404 (after the first
// byte of a streamed page its status can no longer change). Each page checks its permission again itself
// (`requirePage`), for client-side navigations, which do not render the layout; a test holds the two together.
import { cache } from 'react';
import type { Role } from '@/lib/db/schema';
import { getApprovalEngine } from './approvals';
import { pageRuleOf } from './page-rules';
import { can } from './permissions';
import { loadAddress } from './wallet-views';
import { walletConnectionOfRender } from './wallets';

/** The address the address page shows, read once per render: the guard's existence check and the page share it. */
export const addressOfRender = cache(loadAddress);

/**
 * What stands between a signed-in role and the page at `pathname`: `forbidden` when the role may not open it,
 * `not-found` when an id in the path names nothing, otherwise null. Ids are looked up only once the role may see them.
 */
export async function pageAccess(
  pathname: string,
  actor: { role: Role; requestId: string | null },
): Promise<'forbidden' | 'not-found' | null> {
  const match = pageRuleOf(pathname);
  if (!match) return null;
  if (!can(actor.role, match.rule.action)) return 'forbidden';
  const { walletId, requestId, addressId } = match.params;
  if (walletId !== undefined && !(await walletConnectionOfRender(walletId))) return 'not-found';
  if (requestId !== undefined && !(await (await getApprovalEngine()).view(requestId))) return 'not-found';
  if (walletId !== undefined && addressId !== undefined) {
    const address = await addressOfRender(walletId, addressId, actor.requestId);
    // The service answers an id of the wrong shape as bad input, and one it does not hold as not found.
    if (!address.ok && (address.status === 404 || address.status === 400)) return 'not-found';
  }
  return null;
}
