'use client';
import { useQuery } from '@tanstack/react-query';
import { useLiveRefetchInterval } from '@/components/live';
import { addressKeys, walletKeys } from '@/lib/query-keys';
import { type AddressFilters, addressFiltersToQuery } from '@/lib/validation/wallets';
import type { AddressPage, WalletView } from '@/lib/wallet-view';

/** GET a console route handler; a failure becomes an Error carrying the server's message. */
export async function fetchJson<T>(url: string): Promise<T> {
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
