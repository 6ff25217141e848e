import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { WalletOverview } from '@/components/wallets/wallet-overview';
import { requirePage } from '@/lib/server/page-guard';
import { loadWalletView } from '@/lib/server/wallet-views';

export const metadata: Metadata = { title: 'Wallet overview' };

export default async function WalletOverviewPage({ params }: { params: Promise<{ walletId: string }> }) {
  const actor = await requirePage('read');
  const { walletId } = await params;
  const view = await loadWalletView(walletId, actor.requestId);
  if (!view.ok && view.status === 404 && view.error.includes('not connected')) notFound();
  if (!view.ok) {
    return (
      <Alert variant="destructive">
        <AlertTitle>Could not read this wallet</AlertTitle>
        <AlertDescription>{view.error}</AlertDescription>
      </Alert>
    );
  }
  return <WalletOverview walletId={walletId} initial={view.data} />;
}
