'use client';
import { Skeleton } from '@/components/ui/skeleton';
import { formatAmount, formatUsd } from '@/lib/format';
import type { AddressBalances as AddressBalancesData } from '@/lib/wallet-view';
import { useAddressBalances } from './queries';
import { NotOffered, ServiceError } from './service-error';

export interface AddressBalancesProps {
  walletId: string;
  addressId: string;
  /** What the server read; a failure is shown as `initialError` until the next read succeeds. */
  initial?: AddressBalancesData;
  initialError?: string | null;
}

/** The assets a child address holds, kept fresh by live events (a deposit settling, its sweep). */
export function AddressBalances({ walletId, addressId, initial, initialError = null }: AddressBalancesProps) {
  const query = useAddressBalances(walletId, addressId, initial);
  const data = query.data;

  if (!data) {
    if (query.isError || (initialError && !query.isFetching)) {
      return (
        <ServiceError
          title="Could not read this address's balances"
          message={query.error?.message ?? initialError ?? ''}
          onRetry={() => void query.refetch()}
        />
      );
    }
    return (
      <div role="status" aria-label="Loading balances" className="grid gap-2">
        <Skeleton className="h-6 w-full" />
        <Skeleton className="h-6 w-full" />
      </div>
    );
  }
  if (!data.available) {
    return (
      <NotOffered>
        Balances are not available from this custody service: it does not report what a single address holds.
        The transactions below show what arrived and what was swept.
      </NotOffered>
    );
  }
  if (data.balances.length === 0) {
    return <p className="text-sm text-muted-foreground">This wallet has no active assets.</p>;
  }
  const total = data.balances.reduce((sum, b) => sum + (b.usd ?? 0), 0);
  const priced = data.balances.some((b) => b.usd !== null);
  return (
    <div className="grid gap-2">
      {query.isError ? (
        <p role="alert" className="text-sm text-destructive">
          Showing earlier balances: {query.error.message}
        </p>
      ) : null}
      <table aria-label="Balances" className="w-full text-sm">
        <thead>
          <tr className="border-b text-left text-muted-foreground">
            <th scope="col" className="py-2 font-medium">
              Asset
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Balance
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              USD
            </th>
          </tr>
        </thead>
        <tbody>
          {data.balances.map((b) => (
            <tr key={b.walletAssetId} className="border-b last:border-0">
              <th scope="row" className="py-2 text-left font-medium">
                {b.symbol}
                {b.name ? (
                  <>
                    {' '}
                    <span className="ml-1 font-normal text-muted-foreground">{b.name}</span>
                  </>
                ) : null}
              </th>
              <td className="py-2 text-right tabular-nums">{formatAmount(b.balance, b.decimals)}</td>
              <td className="py-2 text-right tabular-nums">{b.usd === null ? '—' : formatUsd(b.usd)}</td>
            </tr>
          ))}
        </tbody>
        {priced ? (
          <tfoot>
            <tr>
              <th scope="row" className="pt-2 text-left font-medium">
                Total
              </th>
              <td />
              <td className="pt-2 text-right font-medium tabular-nums">{formatUsd(total)}</td>
            </tr>
          </tfoot>
        ) : null}
      </table>
    </div>
  );
}
