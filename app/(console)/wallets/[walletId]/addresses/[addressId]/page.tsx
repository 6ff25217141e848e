import { ArrowLeftIcon, ListIcon } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { AddressText } from '@/components/wallets/address-text';
import { AmlBadge } from '@/components/wallets/aml-badge';
import { ServiceError } from '@/components/wallets/service-error';
import { formatDateTime } from '@/lib/format';
import { requirePage } from '@/lib/server/page-guard';
import { can } from '@/lib/server/permissions';
import { getRuntime } from '@/lib/server/runtime';
import { loadAddress, loadWalletView } from '@/lib/server/wallet-views';
import { findWalletConnection } from '@/lib/server/wallets';
import { RevealPrivateKeyDialog } from './_components/reveal-private-key-dialog';
import { SimulateDepositForm } from './_components/simulate-deposit-form';

export const metadata: Metadata = { title: 'Address' };

interface PageProps {
  params: Promise<{ walletId: string; addressId: string }>;
}

function Flag({ label, on, hint }: { label: string; on: boolean | undefined; hint: string }) {
  return (
    <div className="flex items-start justify-between gap-4 border-b pb-2">
      <dt>
        <div>{label}</div>
        <div className="text-xs text-muted-foreground">{hint}</div>
      </dt>
      <dd>
        {on === undefined ? (
          <span className="text-muted-foreground">Not reported</span>
        ) : (
          <Badge variant={on ? 'success' : 'secondary'}>{on ? 'Yes' : 'No'}</Badge>
        )}
      </dd>
    </div>
  );
}

export default async function AddressDetailPage({ params }: PageProps) {
  const actor = await requirePage('read');
  const { walletId, addressId } = await params;
  const connection = await findWalletConnection(walletId);
  if (!connection) notFound();
  const runtime = await getRuntime();
  const canDeposit = Boolean(runtime.sandbox) && can(actor.role, 'sandbox.deposit');
  // The deposit form's asset list is secondary: started now, streamed in, never holding up the address.
  const walletView = canDeposit ? loadWalletView(walletId, actor.requestId) : null;
  const result = await loadAddress(walletId, addressId, actor.requestId);
  const back = `/wallets/${encodeURIComponent(walletId)}/addresses`;

  if (!result.ok) {
    if (result.status === 404) notFound();
    return <ServiceError title="Could not read this address" message={result.error} />;
  }
  const address = result.data;
  const config = address.configurations;
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
              {address.isActive ? 'Active' : 'Inactive'}
            </Badge>
          </div>
          <AddressText value={address.address} blockchain={chain} network={address.network} full />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <Link
              href={`/wallets/${encodeURIComponent(walletId)}/transactions?addressId=${encodeURIComponent(address.id)}`}
            >
              <ListIcon aria-hidden />
              Transactions
            </Link>
          </Button>
          {can(actor.role, 'privateKey.reveal') ? (
            <RevealPrivateKeyDialog
              walletId={walletId}
              addressId={address.id}
              addressName={address.name ?? address.address}
            />
          ) : null}
        </div>
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle id="address-details-heading">Details</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-3 text-sm">
              <div className="flex items-start justify-between gap-4 border-b pb-2">
                <dt>Derivation path</dt>
                <dd>
                  <code className="font-mono">{address.derivationPath ?? 'None (external address)'}</code>
                </dd>
              </div>
              <div className="flex items-start justify-between gap-4 border-b pb-2">
                <dt>Network</dt>
                <dd className="capitalize">
                  {address.blockchain?.name ?? connection.blockchain} · {address.network}
                </dd>
              </div>
              <div className="flex items-start justify-between gap-4 border-b pb-2">
                <dt>AML screening</dt>
                <dd className="text-right">
                  {config.aml ? `${config.aml.provider}: ${config.aml.message}` : 'Not screened'}
                </dd>
              </div>
              <div className="flex items-start justify-between gap-4 border-b pb-2">
                <dt>Created</dt>
                <dd>{formatDateTime(address.createdAt)}</dd>
              </div>
              <div className="flex items-start justify-between gap-4 border-b pb-2">
                <dt>Updated</dt>
                <dd>{formatDateTime(address.updatedAt)}</dd>
              </div>
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle id="address-config-heading">Configuration</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-3 text-sm">
              <Flag
                label="Auto-sweep disabled"
                on={config.disableAutoSweep}
                hint="Deposits stay on this address instead of moving to the master wallet."
              />
              <Flag
                label="Gasless withdrawals"
                on={config.enableGaslessWithdraw}
                hint="Withdrawals from this address need no native coin for gas."
              />
              <Flag
                label="Private key may be revealed"
                on={config.showPrivateKey}
                hint="Whether the custody service returns the key on request."
              />
            </dl>
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader>
          <CardTitle id="address-metadata-heading">Metadata</CardTitle>
          <CardDescription>Caller-supplied data stored with the address.</CardDescription>
        </CardHeader>
        <CardContent>
          {address.metadata && Object.keys(address.metadata).length > 0 ? (
            <pre className="overflow-x-auto rounded-md bg-muted p-3 font-mono text-xs">
              {JSON.stringify(address.metadata, null, 2)}
            </pre>
          ) : (
            <p className="text-sm text-muted-foreground">No metadata.</p>
          )}
        </CardContent>
      </Card>

      {canDeposit ? (
        <Card>
          <CardHeader>
            <CardTitle>Simulate a deposit</CardTitle>
            <CardDescription>
              Sandbox only: the embedded custody service records an incoming deposit to this address, which
              then confirms, settles{config.disableAutoSweep ? '' : ', sweeps to the master wallet'} and sends
              webhooks.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {walletView ? (
              <Suspense fallback={<Skeleton className="h-24 w-full" />}>
                <DepositForm walletId={walletId} addressId={address.id} walletView={walletView} />
              </Suspense>
            ) : null}
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}

async function DepositForm({
  walletId,
  addressId,
  walletView,
}: {
  walletId: string;
  addressId: string;
  walletView: ReturnType<typeof loadWalletView>;
}) {
  const view = await walletView;
  if (!view.ok) return <ServiceError title="Could not read the wallet's assets" message={view.error} />;
  const assets = view.data.balances
    .filter((b) => b.isActive)
    .map((b) => ({ id: b.walletAssetId, symbol: b.symbol, decimals: b.decimals }));
  if (assets.length === 0)
    return <p className="text-sm text-muted-foreground">This wallet has no active assets.</p>;
  return <SimulateDepositForm walletId={walletId} addressId={addressId} assets={assets} />;
}
