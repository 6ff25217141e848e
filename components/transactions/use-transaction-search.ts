'use client';
import { type Options, useQueryStates } from 'nuqs';
import { useCallback, useMemo } from 'react';
import {
  type TransactionSearch,
  toUrlValues,
  transactionSearchOf,
  transactionSearchParsers,
} from '@/lib/validation/transactions';

/**
 * The view's state, read from and written to the URL through the same nuqs parsers as the server page
 * (shareable, survives reload). Updates are shallow: the table refetches through TanStack Query without a
 * server render of the page.
 */
export function useTransactionSearch() {
  const [values, setValues] = useQueryStates(transactionSearchParsers, { history: 'push' });
  const search = useMemo(() => transactionSearchOf(values), [values]);
  const setSearch = useCallback(
    (patch: Partial<TransactionSearch>, mode: 'push' | 'replace' = 'push') =>
      setValues(toUrlValues(patch), { history: mode } satisfies Options),
    [setValues],
  );
  return [search, setSearch] as const;
}
