'use client';
import type { ColumnDef } from '@tanstack/react-table';
import { useQueryStates } from 'nuqs';
import { useCallback, useMemo, useRef } from 'react';
import { DataTable } from '@/components/data-table/data-table';
import { DataTableEmpty } from '@/components/data-table/data-table-empty';
import { DataTablePagination } from '@/components/data-table/data-table-pagination';
import { createDataTableColumnHelper, type DataTableFeatures } from '@/components/data-table/features';
import { useDataTable } from '@/components/data-table/use-data-table';
import {
  amountWithAsset,
  DEFAULT_HIDDEN_TRANSACTION_COLUMNS,
  transactionColumns,
  typeLabel,
} from '@/components/transactions/transaction-columns';
import { TransactionDrawer } from '@/components/transactions/transaction-drawer';
import { Badge } from '@/components/ui/badge';
import { RetryTransactionButton } from '@/components/webhooks/retry-transaction-button';
import { TransactionDeliveries } from '@/components/webhooks/transaction-deliveries';
import type { Transaction } from '@/lib/custody/schemas';
import { formatDateTime } from '@/lib/format';
import type { AddressTransactionPage } from '@/lib/wallet-view';
import {
  ADDRESS_TRANSACTION_PAGE_SIZES,
  type AddressTransactionView,
  addressSearchParams,
  addressTransactionView,
} from './address-search-params';
import { SWEEP_LABEL, type SweepState, sweepStateOf } from './deposit-sweep';
import { firstReadFailure } from './first-read';
import { useAddressTransactions } from './queries';
import { ServiceError } from './service-error';

export interface AddressTransactionsProps {
  walletId: string;
  addressId: string;
  /** Whether deposits to this address move on to the master wallet. */
  addressSweeps: boolean;
  /** The page the server read for `initialView` (null when that read failed: see `initialError`). */
  initialPage: AddressTransactionPage | null;
  initialView: AddressTransactionView;
  initialError?: string | null;
  canRetry?: boolean;
  canResend?: boolean;
}

const EMPTY: Transaction[] = [];
const helper = createDataTableColumnHelper<Transaction>();

const SWEEP_VARIANT: Record<SweepState, 'success' | 'warning' | 'destructive' | 'secondary' | 'outline'> = {
  none: 'outline',
  stays: 'secondary',
  'after-settlement': 'secondary',
  sweeping: 'warning',
  swept: 'success',
  failed: 'destructive',
};

function SweepBadge({ state }: { state: SweepState }) {
  if (state === 'none') return <span className="text-muted-foreground">—</span>;
  return <Badge variant={SWEEP_VARIANT[state]}>{SWEEP_LABEL[state]}</Badge>;
}

function sameView(a: AddressTransactionView, b: AddressTransactionView): boolean {
  return a.page === b.page && a.limit === b.limit && a.order === b.order;
}

/** #3 for one child address: newest first, paged in the URL, live through the wallet's events. */
export function AddressTransactions({
  walletId,
  addressId,
  addressSweeps,
  initialPage,
  initialView,
  initialError = null,
  canRetry = false,
  canResend = false,
}: AddressTransactionsProps) {
  const [search, setSearch] = useQueryStates(addressSearchParams);
  const view = addressTransactionView(search);
  const isInitial = sameView(view, initialView);
  const query = useAddressTransactions(
    walletId,
    addressId,
    view,
    isInitial && initialPage ? initialPage : undefined,
  );
  const rows = query.data?.data ?? EMPTY;
  const opener = useRef<HTMLElement | null>(null);

  const toggleOrder = useCallback(
    () => void setSearch({ order: view.order === 'ASC' ? 'DESC' : 'ASC', page: 1 }),
    [view.order, setSearch],
  );
  const columns = useMemo(() => {
    const base = transactionColumns<Transaction>({ order: view.order, onToggleOrder: toggleOrder });
    const sweep = helper.accessor((tx) => SWEEP_LABEL[sweepStateOf(tx, addressSweeps)], {
      id: 'sweep',
      meta: { label: 'Sweep' },
      enableSorting: false,
      header: 'Sweep',
      cell: ({ row }) => <SweepBadge state={sweepStateOf(row.original, addressSweeps)} />,
    }) as ColumnDef<DataTableFeatures, Transaction, unknown>;
    // Right after the status, where the deposit's progress reads left to right.
    const at = base.findIndex((c) => c.id === 'status') + 1;
    return [...base.slice(0, at), sweep, ...base.slice(at)];
  }, [view.order, toggleOrder, addressSweeps]);
  const table = useDataTable({
    data: rows,
    columns,
    getRowId: (tx) => tx.id,
    columnVisibilityKey: 'address-transactions',
    // The sender or recipient is this address on every row; From and To stay available in the menu.
    initialColumnVisibility: { ...DEFAULT_HIDDEN_TRANSACTION_COLUMNS, from: false },
  });

  const openRow = search.open ? rows.find((tx) => tx.id === search.open) : undefined;
  const meta = query.data?.meta;
  const failure = firstReadFailure({
    hasData: query.data !== undefined,
    queryError: query.error?.message ?? null,
    initialError,
    isInitial,
  });

  return (
    <div className="grid gap-2">
      {failure !== null ? (
        <ServiceError
          title="Could not read this address's transactions"
          message={failure}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          {query.isError ? (
            <p role="alert" className="text-sm text-destructive">
              Showing earlier results: {query.error.message}
            </p>
          ) : null}
          <DataTable
            table={table}
            label="Address transactions"
            isFetching={query.isFetching && query.isPlaceholderData}
            onRowActivate={(tx) => {
              opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
              void setSearch({ open: tx.id }, { history: 'replace' });
            }}
            rowLabel={(tx) => {
              const sweep = sweepStateOf(tx, addressSweeps);
              return `${typeLabel(tx.type)} of ${amountWithAsset(tx)}, ${tx.status}${
                sweep === 'none' ? '' : `, ${SWEEP_LABEL[sweep]}`
              }, ${formatDateTime(tx.createdAt)}`;
            }}
            empty={
              query.isPending ? (
                <p role="status" className="p-6 text-center text-muted-foreground">
                  Loading transactions…
                </p>
              ) : (
                <DataTableEmpty
                  title="No transactions yet"
                  description="Deposits to this address and withdrawals from it will appear here as they happen."
                />
              )
            }
          />
          <DataTablePagination
            page={view.page}
            pageSize={view.limit}
            totalItems={meta?.totalItems ?? 0}
            itemCount={rows.length}
            pageSizes={ADDRESS_TRANSACTION_PAGE_SIZES}
            itemLabel="transactions"
            disabled={query.isFetching && query.isPlaceholderData}
            onPageChange={(page) => void setSearch({ page })}
            onPageSizeChange={(limit) => void setSearch({ limit, page: 1 })}
          />
        </>
      )}

      <TransactionDrawer
        walletId={walletId}
        open={Boolean(search.open)}
        onOpenChange={(open) => {
          if (!open) void setSearch({ open: null }, { history: 'replace' });
        }}
        transaction={openRow ?? null}
        returnFocusTo={() => opener.current}
        isLoading={!openRow && query.isPending}
        error={
          search.open && !openRow && !query.isPending ? 'This transaction is not on the page shown.' : null
        }
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
