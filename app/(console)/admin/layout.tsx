import { TabNav, type TabNavItem } from '@/components/wallets/tab-nav';
import { currentActor } from '@/lib/server/guard';
import { type Action, can } from '@/lib/server/permissions';

// Sections of the admin area, each shown to roles holding its permission. Other features append entries.
const ADMIN_TABS: Array<TabNavItem & { action: Action }> = [
  { href: '/admin/users', label: 'Users', action: 'users.manage' },
  { href: '/admin/wallets', label: 'Wallet connections', action: 'wallets.manage' },
  { href: '/admin/policy', label: 'Approval policy', action: 'policy.edit' },
  { href: '/admin/tokens', label: 'API tokens', action: 'serviceTokenCreate.request' },
];

export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const actor = await currentActor();
  const tabs = ADMIN_TABS.filter((t) => can(actor?.role, t.action)).map(({ href, label }) => ({
    href,
    label,
  }));
  return (
    <>
      {tabs.length > 1 ? <TabNav items={tabs} label="Admin sections" /> : null}
      {children}
    </>
  );
}
