// Who may open each console page: its permission, by the page's path. Plain data (no server-only), so the
// end-to-end tests read the same table the console layout checks (lib/server/page-access.ts).
import type { Role } from '@/lib/db/schema';
import { type Action, rolesWith } from './permissions';

type Params = Record<string, string>;

interface PageRule {
  /** The page's path as the app folder names it: `[walletId]` matches one segment. */
  path: string;
  action: Action;
}

/** Every console page with its permission. A path not listed here (a layout-only prefix) needs `read`. */
export const PAGE_RULES: readonly PageRule[] = [
  { path: '/account/alerts', action: 'read' },
  { path: '/account/security', action: 'read' },
  { path: '/account/sessions', action: 'read' },
  { path: '/admin/policy', action: 'policy.edit' },
  { path: '/admin/tokens', action: 'serviceTokenCreate.request' },
  { path: '/admin/users', action: 'users.manage' },
  { path: '/admin/wallets', action: 'wallets.manage' },
  { path: '/approvals', action: 'withdraw.approve' },
  { path: '/approvals/[requestId]', action: 'read' },
  { path: '/audit', action: 'audit.view' },
  { path: '/wallets', action: 'read' },
  { path: '/wallets/[walletId]', action: 'read' },
  { path: '/wallets/[walletId]/address-book', action: 'read' },
  { path: '/wallets/[walletId]/addresses', action: 'read' },
  { path: '/wallets/[walletId]/addresses/new', action: 'depositAddress.create' },
  { path: '/wallets/[walletId]/addresses/[addressId]', action: 'read' },
  { path: '/wallets/[walletId]/beneficiaries', action: 'read' },
  { path: '/wallets/[walletId]/contracts', action: 'contract.read' },
  { path: '/wallets/[walletId]/payouts', action: 'withdraw.request' },
  { path: '/wallets/[walletId]/payouts/schedules', action: 'read' },
  { path: '/wallets/[walletId]/settlement', action: 'read' },
  { path: '/wallets/[walletId]/signing', action: 'typedDataSign.request' },
  { path: '/wallets/[walletId]/statements', action: 'read' },
  { path: '/wallets/[walletId]/swaps', action: 'swap.request' },
  { path: '/wallets/[walletId]/transactions', action: 'read' },
  { path: '/wallets/[walletId]/webhooks', action: 'read' },
  { path: '/wallets/[walletId]/whitelist', action: 'whitelistAdd.request' },
  { path: '/wallets/[walletId]/withdraw', action: 'withdraw.request' },
  { path: '/webhooks', action: 'read' },
];

/** The rule of a path and the ids it carries; a literal segment wins over a `[param]` one (`addresses/new`). */
export function pageRuleOf(pathname: string): { rule: PageRule; params: Params } | null {
  const segments = pathname.split('/').filter(Boolean);
  let best: { rule: PageRule; params: Params; literal: number } | null = null;
  for (const rule of PAGE_RULES) {
    const pattern = rule.path.split('/').filter(Boolean);
    if (pattern.length !== segments.length) continue;
    const params: Params = {};
    let literal = 0;
    const matches = pattern.every((part, i) => {
      const segment = segments[i] ?? '';
      if (part.startsWith('[') && part.endsWith(']')) {
        let value: string;
        try {
          value = decodeURIComponent(segment);
        } catch {
          return false;
        }
        params[part.slice(1, -1)] = value;
        return true;
      }
      literal += 1;
      return part === segment;
    });
    if (matches && (!best || literal > best.literal)) best = { rule, params, literal };
  }
  return best ? { rule: best.rule, params: best.params } : null;
}

/** The sentence a forbidden page shows: which roles open it, and the person's own. */
export function neededRoleSentence(action: Action, role: Role | undefined): string {
  const roles = rolesWith(action);
  const needed =
    roles.length === 1
      ? `the ${roles[0]} role`
      : `one of the roles ${roles.slice(0, -1).join(', ')} or ${roles.at(-1)}`;
  return `This page needs ${needed}${role ? `; you are signed in as ${role}` : ''}.`;
}
