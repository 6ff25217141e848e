import { ArrowLeftIcon, ListIcon } from 'lucide-react';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import type { SearchParams } from 'nuqs/server';
import { Suspense } from 'react';
import { DataTableSkeleton } from '@/components/data-table/data-table-skeleton';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { Skeleton } from '@/components/ui/skeleton';
import { AddressBalances } from '@/components/wallets/address-balances';
import { AddressFacts, AddressMetadata } from '@/components/wallets/address-facts';
import { AddressQrCode } from '@/components/wallets/address-qr-code';
import {
  type AddressTransactionView,
  addressTransactionView,
  loadAddressSearchParams,
} from '@/components/wallets/address-search-params';
import { AddressText } from '@/components/wallets/address-text';
import { AddressTransactions } from '@/components/wallets/address-transactions';
import { AmlBadge } from '@/components/wallets/aml-badge';
import { AskPrivateKeyButton } from '@/components/wallets/ask-private-key-button';
import { RemoveWhitelistedButton } from '@/components/wallets/remove-whitelisted-button';
import { ServiceError } from '@/components/wallets/service-error';
import { SimulateDepositForm } from '@/components/wallets/simulate-deposit-form';
import { serviceHoldsKey } from '@/lib/custody/constants';
import { addressOfRender } from '@/lib/server/page-access';
import { requirePage } from '@/lib/server/page-guard';
import { can } from '@/lib/server/permissions';
import { getRuntime } from '@/lib/server/runtime';
import { loadAddressBalances, loadAddressTransactions, loadWalletView } from '@/lib/server/wallet-views';
import { findWalletConnection } from '@/lib/server/wallets';
import { serializeTransactionSearch } from '@/lib/validation/transactions';

export const metadata: Metadata = { title: 'Address' };

interface PageProps {
  params: Promise<{ walletId: string; addressId: string }>;
  searchParams: Promise<SearchParams>;
}

export default async function AddressDetailPage({ params, searchParams }: PageProps) {
  const actor = await requirePage('read');
  const { walletId, addressId } = await params;
  // Parsed once here; the client table reads the same URL through the same parsers.
  const view = addressTransactionView(await loadAddressSearchParams(searchParams));
  const connection = await findWalletConnection(walletId);
  if (!connection) notFound();
  const runtime = await getRuntime();
  const canDeposit = Boolean(runtime.sandbox) && can(actor.role, 'sandbox.deposit');
  // The deposit form's asset list is secondary: started now, streamed in, never holding up the address.
  const walletView = canDeposit ? loadWalletView(walletId, actor.requestId) : null;
  // Balances and transactions stream in under their own skeletons; the address itself is needed first.
  const balances = loadAddressBalances(walletId, addressId, actor.requestId);
  const transactions = loadAddressTransactions(walletId, addressId, view, actor.requestId);
  const result = await addressOfRender(walletId, addressId, actor.requestId);
  const back = `/wallets/${encodeURIComponent(walletId)}/addresses`;

  if (!result.ok) {
    if (result.status === 404) notFound();
    return <ServiceError title="Could not read this address" message={result.error} />;
  }
  const address = result.data;
  const config = address.configurations;
  // Only an address whose key the service holds can be swept (the service skips the others).
  const sweeps = config.disableAutoSweep === false && Boolean(address.derivationPath);
  const chain = address.blockchain?.slug ?? connection.blockchain;

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-2">
          <Link
            href={back}
            className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:underline"
          >
            <ArrowLeftIcon className="size-4" aria-hidden />
            All addresses
          </Link>
          <h2 className="text-xl font-semibold tracking-tight">{address.name ?? 'Unnamed address'}</h2>
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant="outline">
              {address.type === 'INTERNAL'
                ? 'Internal'
                : address.type === 'EXTERNAL'
                  ? 'External'
                  : address.type}
            </Badge>
            <AmlBadge aml={config.aml} />
            <Badge variant={address.isActive ? 'success' : 'secondary'}>
              {address.isActive
                ? 'Active'
                : address.type === 'EXTERNAL'
                  ? 'Removed from whitelist'
                  : 'Inactive'}
            </Badge>
          </div>
          <AddressText value={address.address} blockchain={chain} network={address.network} full />
          {/* Only the service's own addresses receive deposits; an external one is a destination. */}
          {address.type === 'INTERNAL' ? <AddressQrCode address={address.address} /> : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <Link
              href={`/wallets/${encodeURIComponent(walletId)}/transactions?${serializeTransactionSearch({ addressId: address.id })}`}
            >
              <ListIcon aria-hidden />
              Transactions
            </Link>
          </Button>
          {address.type === 'EXTERNAL' && address.isActive && can(actor.role, 'whitelistRemove.request') ? (
            <RemoveWhitelistedButton
              walletId={walletId}
              addressId={address.id}
              name={address.name ?? 'this address'}
              address={address.address}
            />
          ) : null}
          {serviceHoldsKey(address) && can(actor.role, 'privateKeyReveal.request') ? (
            <AskPrivateKeyButton
              walletId={walletId}
              addressId={address.id}
              addressName={address.name ?? address.address}
            />
          ) : null}
        </div>
      </div>

      <AddressFacts address={address} walletBlockchain={connection.blockchain} />

      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-1">
          <CardHeader>
            <CardTitle id="address-balances-heading">Balances</CardTitle>
            <CardDescription>What this address holds now, per asset.</CardDescription>
          </CardHeader>
          <CardContent>
            <Suspense
              fallback={
                <div role="status" aria-label="Loading balances" className="grid gap-2">
                  <Skeleton className="h-6 w-full" />
                  <Skeleton className="h-6 w-full" />
                </div>
              }
            >
              <BalancesSection walletId={walletId} addressId={address.id} balances={balances} />
            </Suspense>
          </CardContent>
        </Card>
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle id="address-transactions-heading">Transactions</CardTitle>
            <CardDescription>
              Deposits to this address and transactions from it, newest first. Open a row for every detail.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Suspense fallback={<DataTableSkeleton columnCount={7} rowCount={5} withToolbar={false} />}>
              <TransactionsSection
                walletId={walletId}
                addressId={address.id}
                sweeps={sweeps}
                view={view}
                transactions={transactions}
                canRetry={can(actor.role, 'transaction.retry')}
                canResend={can(actor.role, 'webhook.resend')}
              />
            </Suspense>
          </CardContent>
        </Card>
      </div>

      <AddressMetadata metadata={address.metadata} />

      {canDeposit ? (
        <Card>
          <CardHeader>
            <CardTitle>Simulate a deposit</CardTitle>
            <CardDescription>
              Sandbox only: the embedded custody service records an incoming deposit to this address, which
              then confirms, settles{sweeps ? ', sweeps to the master wallet' : ''} and sends webhooks. Its
              progress shows here as they arrive.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {walletView ? (
              <Suspense fallback={<Skeleton className="h-24 w-full" />}>
                <DepositForm
                  walletId={walletId}
                  addressId={address.id}
                  walletView={walletView}
                  sweeps={sweeps}
                />
              </Suspense>
            ) : null}
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}

async function BalancesSection({
  walletId,
  addressId,
  balances,
}: {
  walletId: string;
  addressId: string;
  balances: ReturnType<typeof loadAddressBalances>;
}) {
  const result = await balances;
  return (
    <AddressBalances
      walletId={walletId}
      addressId={addressId}
      initial={result.ok ? result.data : undefined}
      initialError={result.ok ? null : result.error}
    />
  );
}

async function TransactionsSection({
  walletId,
  addressId,
  sweeps,
  view,
  transactions,
  canRetry,
  canResend,
}: {
  walletId: string;
  addressId: string;
  sweeps: boolean;
  view: AddressTransactionView;
  transactions: ReturnType<typeof loadAddressTransactions>;
  canRetry: boolean;
  canResend: boolean;
}) {
  const result = await transactions;
  return (
    <AddressTransactions
      walletId={walletId}
      addressId={addressId}
      addressSweeps={sweeps}
      initialPage={result.ok ? result.data : null}
      initialView={view}
      initialError={result.ok ? null : result.error}
      canRetry={canRetry}
      canResend={canResend}
    />
  );
}

async function DepositForm({
  walletId,
  addressId,
  walletView,
  sweeps,
}: {
  walletId: string;
  addressId: string;
  walletView: ReturnType<typeof loadWalletView>;
  sweeps: boolean;
}) {
  const view = await walletView;
  if (!view.ok) return <ServiceError title="Could not read the wallet's assets" message={view.error} />;
  const assets = view.data.balances
    .filter((b) => b.isActive)
    .map((b) => ({ id: b.walletAssetId, symbol: b.symbol, decimals: b.decimals }));
  if (assets.length === 0)
    return <p className="text-sm text-muted-foreground">This wallet has no active assets.</p>;
  return (
    <SimulateDepositForm walletId={walletId} addressId={addressId} assets={assets} addressSweeps={sweeps} />
  );
}
