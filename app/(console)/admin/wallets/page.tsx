import type { Metadata } from 'next';
import { ConnectWalletDialog } from '@/components/admin/wallets/connect-wallet-dialog';
import { WalletCapabilities } from '@/components/admin/wallets/wallet-capabilities';
import { WalletConnectionsTable } from '@/components/admin/wallets/wallet-connections-table';
import { PageHeader } from '@/components/shell/page-header';
import { CAPABILITY_NAMES, EXTENSION_CAPABILITIES, toCapabilities } from '@/lib/server/capabilities';
import { requirePage } from '@/lib/server/page-guard';
import { toSummary, walletConnectionsOfRender } from '@/lib/server/wallets';

export const metadata: Metadata = { title: 'Wallet connections' };

export default async function WalletConnectionsPage() {
  await requirePage('wallets.manage');
  // toSummary: the browser gets the last four characters of each key, never the key.
  const rows = await walletConnectionsOfRender();
  const wallets = rows.map(toSummary);
  const capabilities = rows.map((r) => ({
    id: r.id,
    name: r.name,
    capabilities: r.capabilities ? toCapabilities(r.capabilities) : null,
    checkedAt: r.capabilitiesCheckedAt?.toISOString() ?? null,
  }));
  const definitions = CAPABILITY_NAMES.map((name) => ({ name, ...EXTENSION_CAPABILITIES[name] }));
  return (
    <>
      <PageHeader
        title="Wallet connections"
        description="The custody API cannot list wallets: these are the wallets this console knows, each with its API key stored encrypted."
        actions={<ConnectWalletDialog />}
      />
      <div className="grid gap-8">
        <WalletConnectionsTable wallets={wallets} />
        <WalletCapabilities wallets={capabilities} definitions={definitions} />
      </div>
    </>
  );
}
