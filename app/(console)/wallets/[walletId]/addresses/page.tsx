import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { AddressList } from '@/components/wallets/address-list';
import { requirePage } from '@/lib/server/page-guard';
import { can } from '@/lib/server/permissions';
import { loadAddresses } from '@/lib/server/wallet-views';
import { findWalletConnection } from '@/lib/server/wallets';
import { parseAddressFilters } from '@/lib/validation/address-search';

export const metadata: Metadata = { title: 'Addresses' };

interface PageProps {
  params: Promise<{ walletId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function WalletAddressesPage({ params, searchParams }: PageProps) {
  const actor = await requirePage('read');
  const { walletId } = await params;
  const connection = await findWalletConnection(walletId);
  if (!connection) notFound();
  // The URL is the state: parsed once here, the same schema the route handler uses.
  const filters = parseAddressFilters(await searchParams);
  const page = await loadAddresses(walletId, filters, actor.requestId);
  return (
    <AddressList
      walletId={walletId}
      blockchain={connection.blockchain}
      network={connection.network}
      filters={filters}
      initial={page.ok ? page.data : undefined}
      initialError={page.ok ? undefined : page.error}
      canCreate={can(actor.role, 'depositAddress.create')}
    />
  );
}
