'use client';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OnChangeFn, SortingState } from '@tanstack/react-table';
import { Download } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { DataTable } from '@/components/data-table/data-table';
import { DataTableEmpty } from '@/components/data-table/data-table-empty';
import { DataTablePagination } from '@/components/data-table/data-table-pagination';
import {
  DataTableSearch,
  DataTableSelectFilter,
  DataTableToolbar,
} from '@/components/data-table/data-table-toolbar';
import { DataTableViewOptions } from '@/components/data-table/data-table-view-options';
import { useDataTable } from '@/components/data-table/use-data-table';
import { useLiveRefetchInterval } from '@/components/live/live-status';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { firstReadFailure } from '@/components/wallets/first-read';
import { ServiceError } from '@/components/wallets/service-error';
import { RetryTransactionButton } from '@/components/webhooks/retry-transaction-button';
import { TransactionDeliveries } from '@/components/webhooks/transaction-deliveries';
import { TRANSACTION_FILTER_TYPES, TRANSACTION_STATUSES, TRANSACTION_TYPES } from '@/lib/custody/constants';
import { formatDateTime } from '@/lib/format';
import { transactionKeys } from '@/lib/query-keys';
import {
  classifyTransactionSearch,
  DEFAULT_TRANSACTION_SEARCH,
  filtersOf,
  hasActiveFilters,
  serializeTransactionSearch,
  TRANSACTION_PAGE_SIZES,
  TRANSACTION_SORT_FIELDS,
  type TransactionFilterState,
  type TransactionSortField,
} from '@/lib/validation/transactions';
import type { TransactionRow } from '@/lib/wallet-view';
import {
  fetchTransaction,
  fetchTransactionPage,
  type TransactionPageData,
  transactionExportUrl,
} from './api';
import {
  amountWithAsset,
  DEFAULT_HIDDEN_TRANSACTION_COLUMNS,
  transactionColumns,
  typeLabel,
} from './transaction-columns';
import { TransactionDrawer } from './transaction-drawer';
import { useTransactionSearch } from './use-transaction-search';

export interface TransactionsTableProps {
  walletId: string;
  /** Asset symbols of the wallet, for the asset filter. */
  assetSymbols: string[];
  /** The page the server rendered for `initialFilters` (null when that read failed: see `initialError`). */
  initialPage: TransactionPageData | null;
  initialFilters: TransactionFilterState;
  initialError?: string | null;
  /** What the signed-in role may do; the server checks again on every call. */
  canRetry?: boolean;
  canResend?: boolean;
}

const EMPTY: TransactionRow[] = [];
const TRANSACTION_COLUMNS = transactionColumns();

function isSortField(id: string): id is TransactionSortField {
  return (TRANSACTION_SORT_FIELDS as readonly string[]).includes(id);
}

function sameFilters(a: TransactionFilterState, b: TransactionFilterState): boolean {
  return serializeTransactionSearch(a) === serializeTransactionSearch(b);
}

export function TransactionsTable({
  walletId,
  assetSymbols,
  initialPage,
  initialFilters,
  initialError = null,
  canRetry = false,
  canResend = false,
}: TransactionsTableProps) {
  const [search, setSearch] = useTransactionSearch();
  const filters = useMemo(() => filtersOf(search), [search]);
  const refetchInterval = useLiveRefetchInterval();
  const isInitial = sameFilters(filters, initialFilters);
  const [searchError, setSearchError] = useState<string | undefined>();
  const opener = useRef<HTMLElement | null>(null);
  const queryClient = useQueryClient();
  /** A link's page that was past the end, and the last page shown instead. */
  const [clamped, setClamped] = useState<{ from: number; to: number } | null>(null);

  const queryKeyOf = useCallback(
    (f: TransactionFilterState) => [...transactionKeys.all(walletId), f] as const,
    [walletId],
  );
  const query = useQuery({
    queryKey: queryKeyOf(filters),
    queryFn: () => fetchTransactionPage(walletId, filters),
    initialData: isInitial && initialPage ? initialPage : undefined,
    placeholderData: keepPreviousData,
    refetchInterval,
  });
  const rows = query.data?.data ?? EMPTY;
  const failure = firstReadFailure({
    hasData: query.data !== undefined,
    queryError: query.error?.message ?? null,
    initialError,
    isInitial,
  });

  // The server sorts the whole result (URL `sort` and `order`); the table only shows which column it is.
  const sorting = useMemo<SortingState>(
    () => [{ id: search.sort, desc: search.order === 'DESC' }],
    [search.sort, search.order],
  );
  const onSortingChange: OnChangeFn<SortingState> = useCallback(
    (updater) => {
      const next = (typeof updater === 'function' ? updater(sorting) : updater)[0];
      if (!next || !isSortField(next.id)) return;
      setClamped(null);
      void setSearch({ sort: next.id, order: next.desc ? 'DESC' : 'ASC', page: 1 });
    },
    [sorting, setSearch],
  );
  const table = useDataTable({
    data: rows,
    columns: TRANSACTION_COLUMNS,
    getRowId: (tx) => tx.id,
    columnVisibilityKey: 'transactions',
    initialColumnVisibility: DEFAULT_HIDDEN_TRANSACTION_COLUMNS,
    sorting,
    onSortingChange,
  });

  // A page past the end comes back as the last page (`meta.currentPage`): the URL follows, without another
  // read, and the view says what happened.
  const servedPage = query.isPlaceholderData ? undefined : query.data?.meta.currentPage;
  useEffect(() => {
    if (servedPage === undefined || servedPage === search.page || !query.data) return;
    queryClient.setQueryData(queryKeyOf({ ...filters, page: servedPage }), query.data);
    setClamped({ from: search.page, to: servedPage });
    void setSearch({ page: servedPage }, 'replace');
  }, [servedPage, search.page, query.data, filters, queryClient, queryKeyOf, setSearch]);

  // The drawer shows the row from the loaded page (kept fresh by the list query), or reads it on its own
  // when a link opened a transaction that is not on this page.
  const openId = search.open;
  const openRow = openId ? rows.find((tx) => tx.id === openId) : undefined;
  const detail = useQuery({
    queryKey: transactionKeys.detail(walletId, openId ?? ''),
    queryFn: () => fetchTransaction(walletId, openId ?? ''),
    enabled: Boolean(openId) && !openRow && !query.isPending,
    refetchInterval,
  });
  const drawerTx = openRow ?? detail.data ?? null;

  const setFilter = (patch: Partial<TransactionFilterState>) => {
    setSearchError(undefined);
    setClamped(null);
    void setSearch({ ...patch, page: 1 });
  };
  const scope = search.addressId ? 'address' : 'wallet';
  const searchValue = search.id ?? search.hash ?? search.reference ?? '';
  const onSearch = (text: string) => {
    if (!text) {
      setFilter({ id: undefined, hash: undefined, reference: undefined });
      return;
    }
    const target = classifyTransactionSearch(text, scope);
    if (target.field === null) {
      setSearchError(target.error);
      return;
    }
    setFilter({ id: undefined, hash: undefined, reference: undefined, [target.field]: target.value });
  };
  const filtered = hasActiveFilters(search);
  const reset = () =>
    setFilter({
      ...DEFAULT_TRANSACTION_SEARCH,
      addressId: search.addressId,
      limit: search.limit,
      sort: search.sort,
      order: search.order,
    });

  const meta = query.data?.meta;
  const typeOptions = search.addressId ? TRANSACTION_FILTER_TYPES : TRANSACTION_TYPES;

  return (
    <div className="grid gap-2">
      {search.addressId ? (
        <p className="text-sm text-muted-foreground">
          Showing the transactions of one address.{' '}
          <button
            type="button"
            className="underline underline-offset-4"
            onClick={() => setFilter({ addressId: undefined })}
          >
            Show the whole wallet
          </button>
        </p>
      ) : null}
      <DataTableToolbar
        onReset={
          filtered && (search.status || search.type || search.assets.length || searchValue)
            ? reset
            : undefined
        }
        actions={
          <>
            <Button asChild variant="outline" size="sm">
              <a href={transactionExportUrl(walletId, filters)} download>
                <Download aria-hidden />
                Export CSV
              </a>
            </Button>
            <DataTableViewOptions table={table} />
          </>
        }
      >
        <DataTableSelectFilter
          label="Status"
          value={search.status ?? ''}
          options={TRANSACTION_STATUSES}
          onChange={(v) => setFilter({ status: (v || undefined) as TransactionFilterState['status'] })}
        />
        <DataTableSelectFilter
          label="Type"
          value={search.type ?? ''}
          options={typeOptions.map((t) => ({ value: t, label: typeLabel(t) }))}
          onChange={(v) => setFilter({ type: (v || undefined) as TransactionFilterState['type'] })}
        />
        <DataTableSelectFilter
          label="Asset"
          value={search.assets.length === 1 ? (search.assets[0] ?? '') : ''}
          allLabel={search.assets.length > 1 ? search.assets.join(', ') : 'All'}
          options={assetSymbols}
          onChange={(v) => setFilter({ assets: v ? [v] : [] })}
        />
        <DataTableSearch
          label={scope === 'wallet' ? 'Search by id, hash or reference' : 'Search by id or hash'}
          value={searchValue}
          placeholder={
            scope === 'wallet' ? 'Transaction id, 0x… hash or reference' : 'Transaction id or 0x… hash'
          }
          onSearch={onSearch}
          error={searchError}
        />
      </DataTableToolbar>

      {failure !== null ? (
        <ServiceError
          title="Transactions could not be loaded"
          message={failure}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          {query.isError ? (
            <Alert variant="warning">
              <AlertDescription>Showing earlier results: {query.error.message}</AlertDescription>
            </Alert>
          ) : null}
          {clamped && clamped.to === search.page ? (
            <p role="status" className="text-sm text-muted-foreground">
              Page {clamped.from.toLocaleString('en-US')} does not exist; showing the last page,{' '}
              {clamped.to.toLocaleString('en-US')}.
            </p>
          ) : null}
          {query.data?.scanLimit ? (
            <p className="text-sm text-muted-foreground">
              The custody service cannot sort or filter this list itself, so the console sorted and counted
              the newest {query.data.scanLimit.toLocaleString('en-US')} transactions only.
            </p>
          ) : null}
          <DataTable
            table={table}
            label="Transactions"
            isFetching={query.isFetching && query.isPlaceholderData}
            onRowActivate={(tx) => {
              opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
              setSearch({ open: tx.id }, 'replace');
            }}
            rowLabel={(tx) =>
              `${typeLabel(tx.type)} of ${amountWithAsset(tx)}, ${tx.status}, ${formatDateTime(tx.createdAt)}`
            }
            empty={
              query.isPending ? (
                <p className="p-6 text-center text-muted-foreground">Loading transactions…</p>
              ) : (
                <DataTableEmpty
                  title={filtered ? 'No transactions match these filters' : 'No transactions yet'}
                  description={
                    filtered
                      ? 'Change or reset the filters to see more.'
                      : 'Deposits, withdrawals and swaps of this wallet will appear here.'
                  }
                >
                  {filtered ? (
                    <Button size="sm" variant="outline" onClick={reset}>
                      Reset filters
                    </Button>
                  ) : null}
                </DataTableEmpty>
              )
            }
          />
          <DataTablePagination
            page={servedPage ?? search.page}
            pageSize={search.limit}
            totalItems={meta?.totalItems ?? 0}
            itemCount={rows.length}
            pageSizes={TRANSACTION_PAGE_SIZES}
            itemLabel="transactions"
            disabled={query.isFetching && query.isPlaceholderData}
            onPageChange={(page) => {
              setClamped(null);
              void setSearch({ page });
            }}
            onPageSizeChange={(limit) => {
              setClamped(null);
              void setSearch({ limit: limit as TransactionFilterState['limit'], page: 1 });
            }}
          />
        </>
      )}

      <TransactionDrawer
        walletId={walletId}
        open={Boolean(openId)}
        onOpenChange={(open) => {
          if (!open) setSearch({ open: undefined }, 'replace');
        }}
        transaction={drawerTx}
        returnFocusTo={() => opener.current}
        isLoading={!drawerTx && (detail.isPending || query.isPending)}
        error={!drawerTx && detail.isError ? detail.error.message : null}
        renderActions={
          canRetry ? (tx) => <RetryTransactionButton walletId={walletId} transaction={tx} /> : undefined
        }
        renderDeliveries={(tx) => (
          <TransactionDeliveries walletId={walletId} transactionId={tx.id} canResend={canResend} />
        )}
      />
    </div>
  );
}
