import type { Role } from '@/lib/db/schema';
import { type Action, can } from './permissions';

export interface NavItem {
  href: string;
  label: string;
  icon: 'wallets' | 'approvals' | 'webhooks' | 'audit' | 'admin';
  action: Action;
}

// The sidebar, shown by role: each entry appears when the role holds the permission its page needs (the page's
// own `requirePage` action: every role that may read the webhook logs finds them here, not only those who resend).
const NAV_ITEMS: NavItem[] = [
  { href: '/wallets', label: 'Wallets', icon: 'wallets', action: 'read' },
  { href: '/approvals', label: 'Approvals', icon: 'approvals', action: 'withdraw.approve' },
  { href: '/webhooks', label: 'Webhooks', icon: 'webhooks', action: 'read' },
  { href: '/audit', label: 'Audit', icon: 'audit', action: 'audit.view' },
  { href: '/admin/users', label: 'Admin', icon: 'admin', action: 'users.manage' },
];

export function navFor(role: Role): NavItem[] {
  return NAV_ITEMS.filter((item) => can(role, item.action));
}
