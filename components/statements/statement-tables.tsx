'use client';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '@/components/data-table/data-table';
import { createDataTableColumnHelper, type DataTableFeatures } from '@/components/data-table/features';
import { useDataTable } from '@/components/data-table/use-data-table';
import { AddressText } from '@/components/wallets/address-text';
import { formatAmount, formatDateTime } from '@/lib/format';
import type { StatementDifference, StatementLine } from '@/lib/validation/statements';

const lineHelper = createDataTableColumnHelper<StatementLine>();

/** A transaction id kept to one line: shortened, the whole id in its title and copy button. */
function TransactionIdText({ id }: { id: string }) {
  return (
    <div className="whitespace-nowrap">
      <AddressText value={id} what="transaction id" />
    </div>
  );
}

function lineColumns(decimals: number) {
  const amount = (id: keyof StatementLine, header: string) =>
    lineHelper.display({
      id,
      header,
      meta: { label: header, className: 'text-right tabular-nums whitespace-nowrap' },
      cell: ({ row }) => formatAmount(row.original[id], decimals),
    });
  return lineHelper.columns([
    lineHelper.display({
      id: 'createdAt',
      header: 'Date',
      meta: { label: 'Date', className: 'whitespace-nowrap' },
      cell: ({ row }) => formatDateTime(row.original.createdAt),
    }),
    lineHelper.display({
      id: 'type',
      header: 'Type',
      meta: { label: 'Type' },
      cell: ({ row }) => row.original.type,
    }),
    lineHelper.display({
      id: 'transaction',
      header: 'Transaction',
      meta: { label: 'Transaction' },
      cell: ({ row }) => (
        <>
          <TransactionIdText id={row.original.transactionId} />
          <div className="text-xs text-muted-foreground">{row.original.reference}</div>
        </>
      ),
    }),
    amount('deposit', 'Deposit'),
    amount('withdrawal', 'Withdrawal'),
    amount('swapIn', 'Swap in'),
    amount('swapOut', 'Swap out'),
    amount('fee', 'Fee'),
    amount('net', 'Net'),
    lineHelper.display({
      id: 'source',
      header: 'Figures from',
      meta: { label: 'Figures from' },
      cell: ({ row }) => (row.original.source === 'signed' ? 'Signed webhook' : "Service's list"),
    }),
  ]) as ColumnDef<DataTableFeatures, StatementLine, unknown>[];
}

export function StatementLinesTable({ lines, decimals }: { lines: StatementLine[]; decimals: number }) {
  const table = useDataTable({
    data: lines,
    columns: lineColumns(decimals),
    getRowId: (l) => l.transactionId,
  });
  return (
    <DataTable
      table={table}
      label="Transactions of the period"
      scrollRegionLabel="Transactions of the period, scrollable"
      className="min-w-0"
      empty={<p className="p-6 text-center text-sm">No transaction moved this asset in the period.</p>}
    />
  );
}

const diffHelper = createDataTableColumnHelper<StatementDifference>();

function differenceColumns(decimals: number) {
  return diffHelper.columns([
    diffHelper.display({
      id: 'transaction',
      header: 'Transaction',
      meta: { label: 'Transaction' },
      cell: ({ row }) => (
        <>
          {row.original.transactionId === null ? (
            <div className="text-xs">Opening balance</div>
          ) : (
            <TransactionIdText id={row.original.transactionId} />
          )}
          <div className="text-xs text-muted-foreground">{row.original.reference}</div>
        </>
      ),
    }),
    diffHelper.display({
      id: 'what',
      header: 'What differs',
      meta: { label: 'What differs' },
      cell: ({ row }) => row.original.what,
    }),
    diffHelper.display({
      id: 'listed',
      header: 'Service lists now',
      meta: { label: 'Service lists now', className: 'text-right tabular-nums' },
      cell: ({ row }) => formatAmount(row.original.listed, decimals),
    }),
    diffHelper.display({
      id: 'signed',
      header: 'Signed / audited',
      meta: { label: 'Signed / audited', className: 'text-right tabular-nums' },
      cell: ({ row }) => formatAmount(row.original.signed, decimals),
    }),
    diffHelper.display({
      id: 'amount',
      header: 'Difference',
      meta: { label: 'Difference', className: 'text-right tabular-nums' },
      cell: ({ row }) => formatAmount(row.original.amount, decimals),
    }),
  ]) as ColumnDef<DataTableFeatures, StatementDifference, unknown>[];
}

export function StatementDifferencesTable({
  differences,
  decimals,
}: {
  differences: StatementDifference[];
  decimals: number;
}) {
  const table = useDataTable({
    data: differences,
    columns: differenceColumns(decimals),
    getRowId: (d) => d.transactionId ?? 'opening',
  });
  return (
    <DataTable
      table={table}
      label="Differences"
      scrollRegionLabel="Differences, scrollable"
      className="min-w-0"
    />
  );
}
