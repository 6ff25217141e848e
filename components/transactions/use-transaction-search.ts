'use client';
import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import {
  parseTransactionSearch,
  serializeTransactionSearch,
  type TransactionSearch,
} from '@/lib/validation/transactions';

/**
 * The view's state, read from and written to the URL (shareable, survives reload). Writes go through the
 * History API, which Next's router observes: the table refetches through TanStack Query without a server
 * render of the page.
 */
export function useTransactionSearch() {
  const params = useSearchParams();
  const pathname = usePathname();
  const search = useMemo(() => parseTransactionSearch(params), [params]);
  const setSearch = useCallback(
    (patch: Partial<TransactionSearch>, mode: 'push' | 'replace' = 'push') => {
      // From the address bar, not the last render: two changes in quick succession must both stick.
      const current = parseTransactionSearch(new URLSearchParams(window.location.search));
      const qs = serializeTransactionSearch({ ...current, ...patch });
      const url = qs ? `${pathname}?${qs}` : pathname;
      if (mode === 'push') window.history.pushState(null, '', url);
      else window.history.replaceState(null, '', url);
    },
    [pathname],
  );
  return [search, setSearch] as const;
}
