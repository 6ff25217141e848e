import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/shell/page-header';
import { Card, CardContent } from '@/components/ui/card';
import { WhitelistForm } from '@/components/whitelist/whitelist-form';
import { requirePage } from '@/lib/server/page-guard';
import { findWalletConnection } from '@/lib/server/wallets';

export const metadata: Metadata = { title: 'Whitelist an address' };

export default async function WhitelistPage({ params }: { params: Promise<{ walletId: string }> }) {
  await requirePage('whitelistAdd.request');
  const { walletId } = await params;
  const wallet = await findWalletConnection(walletId);
  if (!wallet) notFound();
  return (
    <>
      <PageHeader
        title="Whitelist an external address"
        description={`Asks to add an external address to ${wallet.name}: once a second admin approves, the custody service screens it (AML) and lists it as EXTERNAL.`}
      />
      <Card className="max-w-2xl">
        <CardContent className="pt-5">
          <WhitelistForm walletId={walletId} />
        </CardContent>
      </Card>
    </>
  );
}
