import { notFound } from 'next/navigation';
import { AddressText } from '@/components/wallets/address-text';
import { NetworkBadge } from '@/components/wallets/network-badge';
import { TabNav, type TabNavItem } from '@/components/wallets/tab-nav';
import { requirePage } from '@/lib/server/page-guard';
import { type Action, can } from '@/lib/server/permissions';
import { walletConnectionOfRender } from '@/lib/server/wallets';

interface WalletLayoutProps {
  children: React.ReactNode;
  params: Promise<{ walletId: string }>;
}

// Tabs of a wallet, in order; `path` is appended to /wallets/[walletId]. Other features append entries here.
// A tab shows for the roles that hold its permission.
const WALLET_TABS: Array<{ path: string; label: string; action: Action; exact?: boolean }> = [
  { path: '', label: 'Overview', action: 'read' },
  { path: '/addresses', label: 'Addresses', action: 'read' },
  { path: '/transactions', label: 'Transactions', action: 'read' },
  { path: '/webhooks', label: 'Webhooks', action: 'read' },
  { path: '/statements', label: 'Statements', action: 'read' },
  { path: '/withdraw', label: 'Withdraw', action: 'withdraw.request' },
  { path: '/payouts', label: 'Payouts', action: 'withdraw.request', exact: true },
  { path: '/payouts/schedules', label: 'Payout schedules', action: 'read' },
  { path: '/settlement', label: 'Settlement', action: 'read' },
  { path: '/address-book', label: 'Address book', action: 'read' },
  { path: '/beneficiaries', label: 'Beneficiaries', action: 'read' },
  { path: '/whitelist', label: 'Whitelist', action: 'whitelistAdd.request' },
  { path: '/swaps', label: 'Swaps', action: 'swap.request' },
  { path: '/signing', label: 'Signing', action: 'typedDataSign.request' },
  { path: '/contracts', label: 'Contracts', action: 'contract.read' },
];

/** Wallet header (from the console's own record, so it renders without a custody call) and tabs. */
export default async function WalletLayout({ children, params }: WalletLayoutProps) {
  const actor = await requirePage('read');
  const { walletId } = await params;
  const connection = await walletConnectionOfRender(walletId);
  if (!connection) notFound();
  const base = `/wallets/${encodeURIComponent(walletId)}`;
  const tabs: TabNavItem[] = WALLET_TABS.filter((t) => can(actor.role, t.action)).map((t) => ({
    href: `${base}${t.path}`,
    label: t.label,
    exact: t.path === '' || t.exact === true,
  }));
  return (
    <>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <div className="flex items-center gap-2">
            <h1 className="text-2xl font-semibold tracking-tight">{connection.name}</h1>
            <NetworkBadge network={connection.network} />
          </div>
          <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <span className="capitalize">{connection.blockchain}</span>
            <span aria-hidden>·</span>
            <AddressText
              value={connection.address}
              what="wallet address"
              blockchain={connection.blockchain}
              network={connection.network}
            />
          </div>
        </div>
      </div>
      <TabNav items={tabs} label="Wallet sections" />
      {children}
    </>
  );
}
