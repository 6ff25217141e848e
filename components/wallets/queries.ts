'use client';
import { useQuery } from '@tanstack/react-query';
import { useLiveRefetchInterval } from '@/components/live';
import type { Transaction } from '@/lib/custody/schemas';
import { addressKeys, transactionKeys, walletKeys } from '@/lib/query-keys';
import { type AddressFilters, addressFiltersToQuery } from '@/lib/validation/address-search';
import type { AddressBalances, AddressPage, AddressTransactionPage, WalletView } from '@/lib/wallet-view';
import type { AddressTransactionView } from './address-search-params';

/** GET a console route handler; a failure becomes an Error carrying the server's message. */
async function fetchJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { cache: 'no-store', headers: { accept: 'application/json' } });
  const body = (await response.json().catch(() => null)) as { message?: string } | null;
  if (!response.ok) throw new Error(body?.message ?? `The console answered ${response.status}.`);
  return body as T;
}

/**
 * The wallet as the overview and the cards show it. Live updates invalidate ['wallet', walletId] when a
 * transaction of the wallet changes; while the live stream is down, it polls instead.
 */
export function useWalletView(walletId: string, initial?: WalletView, enabled = true) {
  const refetchInterval = useLiveRefetchInterval(15_000);
  return useQuery({
    queryKey: walletKeys.detail(walletId),
    queryFn: () => fetchJson<WalletView>(`/api/wallets/${encodeURIComponent(walletId)}`),
    initialData: initial,
    // Server-rendered data is fresh; refetch only on invalidation, focus or the fallback interval.
    initialDataUpdatedAt: initial ? Date.now() : undefined,
    refetchInterval: enabled ? refetchInterval : false,
    enabled,
    retry: 1,
  });
}

export function useAddressPage(walletId: string, filters: AddressFilters, initial?: AddressPage) {
  return useQuery({
    queryKey: addressKeys.list(walletId, filters),
    queryFn: () =>
      fetchJson<AddressPage>(
        `/api/wallets/${encodeURIComponent(walletId)}/addresses${addressFiltersToQuery(filters)}`,
      ),
    initialData: initial,
    initialDataUpdatedAt: initial ? Date.now() : undefined,
    placeholderData: (previous) => previous,
    retry: 1,
  });
}

function addressBase(walletId: string, addressId: string): string {
  return `/api/wallets/${encodeURIComponent(walletId)}/addresses/${encodeURIComponent(addressId)}`;
}

/**
 * A child address's balances. Under ['wallet', walletId], so the live layer refreshes them with every
 * event of the wallet (a deposit settling, its sweep); while the stream is down, they poll.
 */
export function useAddressBalances(walletId: string, addressId: string, initial?: AddressBalances) {
  const refetchInterval = useLiveRefetchInterval(10_000);
  return useQuery({
    queryKey: walletKeys.addressBalances(walletId, addressId),
    queryFn: () => fetchJson<AddressBalances>(`${addressBase(walletId, addressId)}/balances`),
    initialData: initial,
    initialDataUpdatedAt: initial ? Date.now() : undefined,
    refetchInterval,
    retry: 1,
  });
}

/** One page of a child address's transactions (#3); refreshed like every transaction list of the wallet. */
export function useAddressTransactions(
  walletId: string,
  addressId: string,
  view: AddressTransactionView,
  initial?: AddressTransactionPage,
) {
  const refetchInterval = useLiveRefetchInterval(10_000);
  const qs = new URLSearchParams({ page: String(view.page), limit: String(view.limit), order: view.order });
  return useQuery({
    queryKey: transactionKeys.address(walletId, addressId, { ...view }),
    queryFn: () =>
      fetchJson<AddressTransactionPage>(`${addressBase(walletId, addressId)}/transactions?${qs}`),
    initialData: initial,
    initialDataUpdatedAt: initial ? Date.now() : undefined,
    placeholderData: (previous) => previous,
    refetchInterval,
    retry: 1,
  });
}

/**
 * One transaction of the address, followed until it has nothing left to do (settled, and swept when the
 * address sweeps). Read with #3's `id` filter, which every service has.
 */
export function useAddressTransaction(
  walletId: string,
  addressId: string,
  transactionId: string | null,
  /** True once the transaction has nothing left to do; polling then stops. */
  isFinished: (tx: Transaction | null | undefined) => boolean,
) {
  const whileDown = useLiveRefetchInterval(3_000);
  return useQuery({
    queryKey: transactionKeys.address(walletId, addressId, { id: transactionId }),
    queryFn: async () => {
      const qs = new URLSearchParams({ id: transactionId ?? '', limit: '10' });
      const page = await fetchJson<AddressTransactionPage>(
        `${addressBase(walletId, addressId)}/transactions?${qs}`,
      );
      return page.data.find((tx) => tx.id === transactionId) ?? null;
    },
    enabled: Boolean(transactionId),
    // Events drive it while the stream is up; a slow poll covers steps that send no webhook of their own.
    refetchInterval: (query) =>
      isFinished(query.state.data) ? false : whileDown === false ? 15_000 : whileDown,
    retry: 1,
  });
}
