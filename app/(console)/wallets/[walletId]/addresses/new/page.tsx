import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/shell/page-header';
import { Card, CardContent } from '@/components/ui/card';
import { DepositAddressForm } from '@/components/wallets/deposit-address-form';
import { requirePage } from '@/lib/server/page-guard';
import { findWalletConnection } from '@/lib/server/wallets';

export const metadata: Metadata = { title: 'New deposit address' };

export default async function NewDepositAddressPage({ params }: { params: Promise<{ walletId: string }> }) {
  await requirePage('depositAddress.create');
  const { walletId } = await params;
  const wallet = await findWalletConnection(walletId);
  if (!wallet) notFound();
  return (
    <>
      <PageHeader
        title="New deposit address"
        description={`A child address of ${wallet.name} for one customer. The custody service derives it from the wallet's key; deposits to it are swept to the master wallet unless auto-sweep is off.`}
      />
      <Card className="max-w-2xl">
        <CardContent className="pt-5">
          <DepositAddressForm walletId={walletId} />
        </CardContent>
      </Card>
    </>
  );
}
