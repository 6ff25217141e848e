import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import type { SearchParams } from 'nuqs/server';
import { SwapForm } from '@/components/swaps/swap-form';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { withdrawFormContext } from '@/lib/server/approvals';
import { describeFailure } from '@/lib/server/errors';
import { requirePage } from '@/lib/server/page-guard';
import { loadSwapSearch } from '@/lib/validation/swaps';

export const metadata: Metadata = { title: 'Swaps' };

interface SwapsPageProps {
  params: Promise<{ walletId: string }>;
  searchParams: Promise<SearchParams>;
}

export default async function SwapsPage({ params, searchParams }: SwapsPageProps) {
  const actor = await requirePage('swap.request');
  const { walletId } = await params;
  const { address } = await loadSwapSearch(searchParams);
  let context: Awaited<ReturnType<typeof withdrawFormContext>>;
  try {
    context = await withdrawFormContext(walletId);
  } catch (error) {
    return (
      <Alert variant="destructive">
        <AlertTitle>Could not load the wallet</AlertTitle>
        <AlertDescription>{describeFailure(error, actor.requestId, 'swaps page').message}</AlertDescription>
      </Alert>
    );
  }
  if (!context) notFound();
  // Swaps run from a child address (#20), never from the master wallet.
  const addresses = context.sources.filter((s) => s.id !== 'master');
  const initial = address !== null && addresses.some((a) => a.id === address) ? address : undefined;
  return (
    <div className="grid gap-4">
      <div>
        <h2 className="text-xl font-semibold">Swap</h2>
        <p className="text-sm text-muted-foreground">
          Swap one asset for another from a child address. The request waits for another person&apos;s
          approval.
        </p>
      </div>
      {addresses.length === 0 && context.addressSource === 'service' ? (
        <p className="text-sm text-muted-foreground">This wallet has no child addresses to swap from.</p>
      ) : (
        <SwapForm
          walletId={walletId}
          addresses={addresses}
          assets={context.assets.map(({ id, symbol, decimals, priceUsd }) => ({
            id,
            symbol,
            decimals,
            priceUsd,
          }))}
          initialAddressId={initial}
          addressSource={context.addressSource}
          balancesAvailable={context.balances !== 'unsupported'}
        />
      )}
    </div>
  );
}
