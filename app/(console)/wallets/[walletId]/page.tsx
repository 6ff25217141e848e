import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ServiceError } from '@/components/wallets/service-error';
import { WalletOverview } from '@/components/wallets/wallet-overview';
import { WALLET_NOT_CONNECTED } from '@/lib/server/errors';
import { requirePage } from '@/lib/server/page-guard';
import { loadWalletView } from '@/lib/server/wallet-views';

export const metadata: Metadata = { title: 'Wallet overview' };

export default async function WalletOverviewPage({ params }: { params: Promise<{ walletId: string }> }) {
  const actor = await requirePage('read');
  const { walletId } = await params;
  const view = await loadWalletView(walletId, actor.requestId);
  if (!view.ok && view.status === 404 && view.error === WALLET_NOT_CONNECTED) notFound();
  if (!view.ok) {
    return <ServiceError title="Could not read this wallet" message={view.error} />;
  }
  return <WalletOverview walletId={walletId} initial={view.data} />;
}
