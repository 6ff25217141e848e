'use client';
import { ScrollTable } from '@/components/shell/scroll-table';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatAmount, formatDateTime, formatUsd } from '@/lib/format';
import { TOTAL_SOURCE_NOTE, walletTotal } from '@/lib/wallet-total';
import type { WalletView } from '@/lib/wallet-view';
import { AddressText } from './address-text';
import { BalanceChart } from './balance-chart';
import { useWalletView } from './queries';

function OnOff({ on, label }: { on: boolean | undefined; label: string }) {
  if (on === undefined) return <span className="text-muted-foreground">Not reported</span>;
  return (
    <Badge variant={on ? 'success' : 'secondary'} aria-label={`${label}: ${on ? 'on' : 'off'}`}>
      {on ? 'On' : 'Off'}
    </Badge>
  );
}

/** The wallet overview: totals, assets with balances, a chart by asset and the configuration summary. */
export function WalletOverview({ walletId, initial }: { walletId: string; initial: WalletView }) {
  const query = useWalletView(walletId, initial);
  const view = query.data ?? initial;
  const { wallet, balances } = view;
  const config = wallet.configurations;
  const settlementRules = config?.autoSettlement.rules ?? [];
  const total = walletTotal(view);

  return (
    // grid-cols-1 (minmax(0, 1fr)) lets the column shrink to a phone's width; wide tables scroll inside
    // their card instead of widening the page.
    <div className="grid grid-cols-1 gap-6">
      {query.isError ? (
        <Alert variant="destructive">
          <AlertTitle>Could not refresh this wallet</AlertTitle>
          <AlertDescription>
            {query.error.message} The figures below are from the last successful read.
          </AlertDescription>
        </Alert>
      ) : null}

      <section aria-labelledby="totals-heading" className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <h2 id="totals-heading" className="sr-only">
          Totals
        </h2>
        <Card>
          <CardHeader>
            <CardDescription>Total balance</CardDescription>
            <p className="text-2xl font-semibold tabular-nums">{formatUsd(total.usd)}</p>
            <p className="text-xs text-muted-foreground">{TOTAL_SOURCE_NOTE[total.source]}</p>
          </CardHeader>
        </Card>
        <Card>
          <CardHeader>
            <CardDescription>Unswept on child addresses</CardDescription>
            <p className="text-2xl font-semibold tabular-nums">
              {formatUsd(wallet.analytics.unsweptBalance)}
            </p>
            <p className="text-xs text-muted-foreground">{TOTAL_SOURCE_NOTE.service}</p>
          </CardHeader>
        </Card>
        <Card>
          <CardHeader>
            <CardDescription>Assets</CardDescription>
            <p className="text-2xl font-semibold tabular-nums">{wallet.analytics.numberOfAssets}</p>
          </CardHeader>
        </Card>
      </section>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle id="assets-heading">Assets</CardTitle>
            <CardDescription>
              {view.balancesSource === 'balances'
                ? 'Balances of the master wallet, in the asset and in US dollars.'
                : 'The custody service reports only the wallet totals, not balances per asset.'}
            </CardDescription>
          </CardHeader>
          <CardContent>
            {balances.length === 0 ? (
              <p className="text-sm text-muted-foreground">This wallet has no assets.</p>
            ) : (
              <ScrollTable aria-labelledby="assets-heading" regionLabel="Assets table">
                <TableHeader>
                  <TableRow>
                    <TableHead scope="col">Asset</TableHead>
                    <TableHead scope="col" className="text-right">
                      Balance
                    </TableHead>
                    <TableHead scope="col" className="text-right">
                      Value (USD)
                    </TableHead>
                    <TableHead scope="col">Status</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {balances.map((b) => (
                    <TableRow key={b.walletAssetId}>
                      <TableCell>
                        <div className="font-medium">{b.symbol}</div>
                        <div className="text-xs text-muted-foreground">{b.name}</div>
                      </TableCell>
                      <TableCell className="text-right tabular-nums">
                        {b.balance === null ? '—' : `${formatAmount(b.balance, b.decimals)} ${b.symbol}`}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">{formatUsd(b.usd)}</TableCell>
                      <TableCell>
                        <Badge variant={b.isActive ? 'outline' : 'secondary'}>
                          {b.isActive ? 'Active' : 'Inactive'}
                        </Badge>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
                {total.source === 'assets' ? (
                  <tfoot>
                    <TableRow className="font-medium">
                      <TableCell>Total</TableCell>
                      <TableCell />
                      <TableCell className="text-right tabular-nums">{formatUsd(total.usd)}</TableCell>
                      <TableCell />
                    </TableRow>
                  </tfoot>
                ) : null}
              </ScrollTable>
            )}
          </CardContent>
        </Card>
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>Balance by asset</CardTitle>
          </CardHeader>
          <CardContent>
            <BalanceChart balances={balances} />
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader>
          <CardTitle id="configuration-heading">Configuration</CardTitle>
          <CardDescription>
            {wallet.description || 'Settings of this wallet at the custody service.'}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
            <div className="flex items-center justify-between gap-2 border-b pb-2">
              <dt>Auto-settlement</dt>
              <dd className="flex items-center gap-2">
                <OnOff on={config?.autoSettlement.isActive} label="Auto-settlement" />
                <span className="text-muted-foreground">
                  {settlementRules.length} {settlementRules.length === 1 ? 'rule' : 'rules'}
                </span>
              </dd>
            </div>
            <div className="flex items-center justify-between gap-2 border-b pb-2">
              <dt>Prefunding</dt>
              <dd>
                <OnOff on={config?.addresses.prefunding.isActive} label="Prefunding" />
              </dd>
            </div>
            <div className="flex items-center justify-between gap-2 border-b pb-2">
              <dt>Address creation</dt>
              <dd>
                <OnOff on={config?.addresses.isActive} label="Address creation" />
              </dd>
            </div>
            <div className="flex items-center justify-between gap-2 border-b pb-2">
              <dt>Status</dt>
              <dd>
                <Badge variant={wallet.isActive ? 'success' : 'secondary'}>{wallet.status}</Badge>
              </dd>
            </div>
            <div className="flex items-center justify-between gap-2 border-b pb-2">
              <dt>Master address</dt>
              <dd>
                <AddressText
                  value={wallet.address}
                  what="wallet address"
                  blockchain={wallet.blockchain.slug}
                  network={wallet.network}
                />
              </dd>
            </div>
            <div className="flex items-center justify-between gap-2 border-b pb-2">
              <dt>Derivation path</dt>
              <dd>
                <code className="font-mono">{wallet.derivationPath}</code>
              </dd>
            </div>
            <div className="flex items-center justify-between gap-2 border-b pb-2">
              <dt>Webhook URL</dt>
              <dd
                className="min-w-0 truncate font-mono text-xs"
                title={wallet.apiCredential?.webhookUrl ?? undefined}
              >
                {wallet.apiCredential?.webhookUrl ?? 'None'}
              </dd>
            </div>
            <div className="flex items-center justify-between gap-2 border-b pb-2">
              <dt>API key</dt>
              <dd className="font-mono text-xs">{wallet.apiCredential?.key || '—'}</dd>
            </div>
            <div className="flex items-center justify-between gap-2 border-b pb-2">
              <dt>Business</dt>
              <dd>{wallet.business?.name ?? '—'}</dd>
            </div>
            <div className="flex items-center justify-between gap-2 border-b pb-2">
              <dt>Created</dt>
              <dd>{formatDateTime(wallet.createdAt)}</dd>
            </div>
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}
