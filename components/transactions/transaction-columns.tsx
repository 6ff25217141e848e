'use client';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTableColumnHeader } from '@/components/data-table/data-table-column-header';
import { createDataTableColumnHelper, type DataTableFeatures } from '@/components/data-table/features';
import type { SortOrder } from '@/lib/custody/schemas';
import { explorerUrl, formatAmount, formatDateTime, formatUsd, shortAddress } from '@/lib/format';
import { FIRST_SORT_ORDER } from '@/lib/validation/transactions';
import type { TransactionRow } from '@/lib/wallet-view';
import { TransactionStatusBadge } from './transaction-status-badge';

const helper = createDataTableColumnHelper<TransactionRow>();

function amountNumber(value: string | null): number | undefined {
  if (value === null) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

const descFirst = (field: keyof typeof FIRST_SORT_ORDER) => FIRST_SORT_ORDER[field] === 'DESC';

/**
 * For a list that the service orders by date only (#3 of one address, sorted on the server through the URL's
 * `order`): the Date header shows and toggles that order, and no other column sorts.
 */
export interface DateOrderOnly {
  order: SortOrder;
  onToggleOrder: () => void;
}

/** "DEPOSIT" → "Deposit"; "CUSTOM_SMART_CONTRACT" → "Custom smart contract". */
export function typeLabel(type: string): string {
  const words = type.toLowerCase().replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The amount with the asset's decimals and symbol, e.g. "1,250.5 USDC". */
export function amountWithAsset(tx: Pick<TransactionRow, 'amount' | 'asset' | 'currency'>): string {
  const symbol = tx.asset?.symbol ?? tx.currency ?? '';
  return `${formatAmount(tx.amount, tx.asset?.decimals ?? 18)}${symbol ? ` ${symbol}` : ''}`;
}

function HashLink({ tx }: { tx: TransactionRow }) {
  if (!tx.hash) return <span className="text-muted-foreground">—</span>;
  const url = explorerUrl(tx.blockchain?.slug, tx.network, 'tx', tx.hash);
  const text = <code className="font-mono text-xs">{shortAddress(tx.hash, 4)}</code>;
  return url ? (
    <a
      href={url}
      target="_blank"
      rel="noreferrer noopener"
      title={tx.hash}
      aria-label={`Open hash ${shortAddress(tx.hash, 4)} in the block explorer`}
      className="underline-offset-4 hover:underline"
    >
      {text}
    </a>
  ) : (
    <span title={tx.hash}>{text}</span>
  );
}

/**
 * Columns of the transactions table. The sortable ones (ids = the URL's `sort` values) are sorted by the
 * server over the whole result; the table does not reorder the loaded page.
 */
export function transactionColumns<Row extends TransactionRow = TransactionRow>(
  dateOrderOnly?: DateOrderOnly,
): ColumnDef<DataTableFeatures, Row, unknown>[] {
  // The cells read only `TransactionRow`'s fields, which every `Row` has (the address page's whole records too).
  const columns = helper.columns([
    helper.accessor('createdAt', {
      id: 'createdAt',
      enableHiding: false,
      sortDescFirst: descFirst('createdAt'),
      meta: { label: 'Date', className: 'whitespace-nowrap' },
      header: ({ column }) => (
        <DataTableColumnHeader
          column={column}
          title="Date"
          serverSort={
            dateOrderOnly && {
              direction: dateOrderOnly.order === 'ASC' ? 'asc' : 'desc',
              onToggle: dateOrderOnly.onToggleOrder,
            }
          }
        />
      ),
      cell: ({ getValue }) => <time dateTime={getValue()}>{formatDateTime(getValue())}</time>,
    }),
    helper.accessor('type', {
      id: 'type',
      meta: { label: 'Type' },
      sortDescFirst: descFirst('type'),
      header: ({ column }) => <DataTableColumnHeader column={column} title="Type" />,
      cell: ({ getValue }) => typeLabel(getValue()),
    }),
    helper.accessor('status', {
      id: 'status',
      meta: { label: 'Status' },
      sortDescFirst: descFirst('status'),
      header: ({ column }) => <DataTableColumnHeader column={column} title="Status" />,
      cell: ({ getValue }) => <TransactionStatusBadge status={getValue()} />,
    }),
    helper.accessor((tx) => tx.asset?.symbol ?? tx.currency ?? '', {
      id: 'asset',
      meta: { label: 'Asset' },
      enableSorting: false,
      header: 'Asset',
    }),
    helper.accessor((tx) => amountNumber(tx.amount), {
      id: 'amount',
      meta: { label: 'Amount', className: 'text-right tabular-nums' },
      sortDescFirst: descFirst('amount'),
      header: ({ column }) => <DataTableColumnHeader column={column} title="Amount" />,
      cell: ({ row }) => formatAmount(row.original.amount, row.original.asset?.decimals ?? 18),
    }),
    helper.accessor((tx) => amountNumber(tx.amountUSD), {
      id: 'amountUSD',
      meta: { label: 'USD', className: 'text-right tabular-nums' },
      sortDescFirst: descFirst('amountUSD'),
      header: ({ column }) => <DataTableColumnHeader column={column} title="USD" />,
      cell: ({ row }) => formatUsd(row.original.amountUSD),
    }),
    helper.accessor('senderAddress', {
      id: 'from',
      meta: { label: 'From' },
      enableSorting: false,
      header: 'From',
      cell: ({ getValue }) => (
        <code className="font-mono text-xs" title={getValue()}>
          {shortAddress(getValue(), 4)}
        </code>
      ),
    }),
    helper.accessor('recipientAddress', {
      id: 'to',
      meta: { label: 'To' },
      enableSorting: false,
      header: 'To',
      cell: ({ getValue }) => (
        <code className="font-mono text-xs" title={getValue()}>
          {shortAddress(getValue(), 4)}
        </code>
      ),
    }),
    helper.display({
      id: 'hash',
      meta: { label: 'Hash' },
      header: 'Hash',
      cell: ({ row }) => <HashLink tx={row.original} />,
    }),
    helper.accessor('reference', {
      id: 'reference',
      meta: { label: 'Reference', className: 'max-w-48 truncate' },
      enableSorting: false,
      header: 'Reference',
    }),
    helper.accessor((tx) => tx.confirmations ?? undefined, {
      id: 'confirmations',
      meta: { label: 'Confirmations', className: 'text-right tabular-nums' },
      enableSorting: false,
      header: 'Confirmations',
      cell: ({ getValue }) => getValue() ?? '—',
    }),
  ]) as unknown as ColumnDef<DataTableFeatures, Row, unknown>[];
  if (!dateOrderOnly) return columns;
  // The Date header drives the server's order itself; the table sorts nothing, so one arrow shows.
  return columns.map((c) => ({ ...c, enableSorting: false }));
}

/** Hidden until someone asks for them (the column menu remembers the choice). */
export const DEFAULT_HIDDEN_TRANSACTION_COLUMNS = { reference: false, confirmations: false };
