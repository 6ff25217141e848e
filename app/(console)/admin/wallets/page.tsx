import type { Metadata } from 'next';
import { PageHeader } from '@/components/shell/page-header';
import { requirePage } from '@/lib/server/page-guard';
import { listWalletConnections, toSummary } from '@/lib/server/wallets';
import { ConnectWalletDialog } from './_components/connect-wallet-dialog';
import { WalletConnectionsTable } from './_components/wallet-connections-table';

export const metadata: Metadata = { title: 'Wallet connections' };

export default async function WalletConnectionsPage() {
  await requirePage('wallets.manage');
  // toSummary: the browser gets the last four characters of each key, never the key.
  const wallets = (await listWalletConnections()).map(toSummary);
  return (
    <>
      <PageHeader
        title="Wallet connections"
        description="The custody API cannot list wallets: these are the wallets this console knows, each with its API key stored encrypted."
        actions={<ConnectWalletDialog />}
      />
      <WalletConnectionsTable wallets={wallets} />
    </>
  );
}
