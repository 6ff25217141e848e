'use client';
// A payout file's rows as tables of the kit (virtualized above a few hundred rows): the payments of a review
// with their warnings, and the rows a check refused with their problems.
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '@/components/data-table/data-table';
import { createDataTableColumnHelper, type DataTableFeatures } from '@/components/data-table/features';
import { useDataTable } from '@/components/data-table/use-data-table';
import { Badge } from '@/components/ui/badge';
import type { PayoutReviewRow } from '@/lib/approvals/payouts';
import { formatAmount, formatUsd } from '@/lib/format';

const payment = createDataTableColumnHelper<PayoutReviewRow>();
const PAYMENT_COLUMNS = payment.columns([
  payment.display({
    id: 'line',
    header: 'Line',
    meta: { label: 'Line' },
    cell: ({ row }) => row.original.line,
  }),
  payment.display({
    id: 'batch',
    header: 'Batch',
    meta: { label: 'Batch' },
    cell: ({ row }) => row.original.batch,
  }),
  payment.display({
    id: 'recipient',
    header: 'Recipient',
    meta: { label: 'Recipient', className: 'min-w-48' },
    cell: ({ row }) => (
      <>
        <span className="block font-mono text-xs break-all">{row.original.address}</span>
        {row.original.bookName ? (
          <span className="block text-xs">Address book: {row.original.bookName}</span>
        ) : null}
        {row.original.label ? (
          <span className="block text-xs text-muted-foreground">{row.original.label}</span>
        ) : null}
      </>
    ),
  }),
  payment.display({
    id: 'amount',
    header: 'Amount',
    meta: { label: 'Amount', className: 'text-right whitespace-nowrap' },
    cell: ({ row }) => `${formatAmount(row.original.amount)} ${row.original.symbol}`,
  }),
  payment.display({
    id: 'usd',
    header: 'USD',
    meta: { label: 'USD', className: 'text-right' },
    cell: ({ row }) => formatUsd(row.original.usd),
  }),
  payment.display({
    id: 'reference',
    header: 'Reference',
    meta: { label: 'Reference', className: 'font-mono text-xs break-all' },
    cell: ({ row }) =>
      row.original.reference || <span className="text-muted-foreground">assigned on creation</span>,
  }),
  payment.display({
    id: 'warnings',
    header: 'Warnings',
    meta: { label: 'Warnings', className: 'min-w-48' },
    cell: ({ row }) => {
      const { aml, warnings } = row.original;
      return (
        <ul className="flex flex-wrap gap-1">
          {aml ? (
            <li>
              <Badge
                variant={['success', 'passed'].includes(aml.status.toLowerCase()) ? 'success' : 'warning'}
              >
                AML {aml.status}
              </Badge>
            </li>
          ) : null}
          {warnings.map((w) => (
            <li key={w} className="min-w-0 wrap-anywhere">
              <Badge variant="warning">{w}</Badge>
            </li>
          ))}
        </ul>
      );
    },
  }),
]) as ColumnDef<DataTableFeatures, PayoutReviewRow, unknown>[];

export function PayoutPaymentsTable({ rows }: { rows: PayoutReviewRow[] }) {
  const table = useDataTable({ data: rows, columns: PAYMENT_COLUMNS, getRowId: (r) => String(r.index) });
  return (
    <DataTable
      table={table}
      label="Payments"
      scrollRegionLabel="Payments (scrolls)"
      className="max-h-[32rem] min-w-0"
    />
  );
}

/** A row of the file the server refused, with every problem it found in it. */
export interface PayoutProblemRow {
  line: number;
  address: string;
  amount: string;
  asset: string;
  problems: string[];
}

const problem = createDataTableColumnHelper<PayoutProblemRow>();
const PROBLEM_COLUMNS = problem.columns([
  problem.display({
    id: 'line',
    header: 'Line',
    meta: { label: 'Line' },
    cell: ({ row }) => row.original.line,
  }),
  problem.display({
    id: 'address',
    header: 'Address',
    meta: { label: 'Address', className: 'min-w-40 font-mono text-xs break-all' },
    cell: ({ row }) => row.original.address || '—',
  }),
  problem.display({
    id: 'amount',
    header: 'Amount',
    meta: { label: 'Amount', className: 'whitespace-nowrap' },
    cell: ({ row }) => row.original.amount || '—',
  }),
  problem.display({
    id: 'asset',
    header: 'Asset',
    meta: { label: 'Asset' },
    cell: ({ row }) => row.original.asset || '—',
  }),
  problem.display({
    id: 'problems',
    header: 'Problems',
    meta: { label: 'Problems', className: 'min-w-48' },
    cell: ({ row }) => (
      <ul className="grid gap-0.5 text-destructive">
        {row.original.problems.map((p) => (
          <li key={p} className="wrap-anywhere">
            {p}
          </li>
        ))}
      </ul>
    ),
  }),
]) as ColumnDef<DataTableFeatures, PayoutProblemRow, unknown>[];

export function PayoutProblemsTable({ rows }: { rows: PayoutProblemRow[] }) {
  const table = useDataTable({ data: rows, columns: PROBLEM_COLUMNS, getRowId: (r) => String(r.line) });
  return (
    <DataTable
      table={table}
      label="Rows with problems"
      scrollRegionLabel="Rows with problems (scrolls)"
      className="max-h-[32rem] min-w-0"
    />
  );
}
