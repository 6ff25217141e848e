'use client';
import { ArrowRightIcon, RefreshCwIcon } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { formatUsd } from '@/lib/format';
import { TOTAL_SOURCE_NOTE, walletTotal } from '@/lib/wallet-total';
import type { WalletView } from '@/lib/wallet-view';
import { AddressText } from './address-text';
import { NetworkBadge } from './network-badge';
import { useWalletView } from './queries';

/** What the console knows about a connected wallet without asking the custody service. */
interface WalletCardConnection {
  id: string;
  name: string;
  blockchain: string;
  network: string;
  address: string;
}

export interface WalletCardProps {
  connection: WalletCardConnection;
  initial: { ok: true; data: WalletView } | { ok: false; error: string };
}

/** One connected wallet: chain, network, address, totals from #4's analytics; the upstream error if the read failed. */
export function WalletCard({ connection, initial }: WalletCardProps) {
  const query = useWalletView(connection.id, initial.ok ? initial.data : undefined, initial.ok);
  const view = query.data;
  const error = view ? null : query.error ? query.error.message : initial.ok ? null : initial.error;
  const wallet = view?.wallet;
  const total = view ? walletTotal(view) : null;
  const headingId = `wallet-${connection.id}-name`;
  const chainName = wallet?.blockchain.name ?? connection.blockchain;
  const network = wallet?.network ?? connection.network;

  return (
    <Card aria-labelledby={headingId} role="article" className="flex min-w-0 flex-col">
      <CardHeader>
        <div className="flex items-start justify-between gap-2">
          <CardTitle id={headingId} className="text-base">
            <Link
              href={`/wallets/${connection.id}`}
              className="hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              {wallet?.name ?? connection.name}
            </Link>
          </CardTitle>
          <NetworkBadge network={network} />
        </div>
        <CardDescription>
          <span className="capitalize">{chainName}</span>
        </CardDescription>
        <AddressText
          value={wallet?.address ?? connection.address}
          what="wallet address"
          blockchain={wallet?.blockchain.slug ?? connection.blockchain}
          network={network}
        />
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        {error ? (
          <Alert variant="destructive">
            <AlertTitle>Could not read this wallet</AlertTitle>
            <AlertDescription>
              <p>{error}</p>
              <Button
                variant="outline"
                size="sm"
                className="mt-2"
                onClick={() => query.refetch()}
                disabled={query.isFetching}
              >
                <RefreshCwIcon aria-hidden />
                Try again
              </Button>
            </AlertDescription>
          </Alert>
        ) : wallet ? (
          <dl className="grid grid-cols-3 gap-3 text-sm">
            <div className="col-span-3">
              <dt className="text-muted-foreground">Total balance</dt>
              <dd className="text-2xl font-semibold tabular-nums">{formatUsd(total?.usd)}</dd>
              {total ? (
                <dd className="text-xs text-muted-foreground">{TOTAL_SOURCE_NOTE[total.source]}</dd>
              ) : null}
            </div>
            <div>
              <dt className="text-muted-foreground">Assets</dt>
              <dd className="font-medium tabular-nums">{wallet.analytics.numberOfAssets}</dd>
            </div>
            <div className="col-span-2">
              <dt className="text-muted-foreground">Unswept</dt>
              <dd className="font-medium tabular-nums">{formatUsd(wallet.analytics.unsweptBalance)}</dd>
            </div>
          </dl>
        ) : null}
        <div className="mt-auto">
          <Button asChild variant="outline" size="sm">
            <Link href={`/wallets/${connection.id}`} aria-label={`Open ${wallet?.name ?? connection.name}`}>
              Open wallet
              <ArrowRightIcon aria-hidden />
            </Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
