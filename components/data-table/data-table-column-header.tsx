'use client';
import type { Column, RowData } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import { cn } from '@/lib/utils';
import type { DataTableFeatures } from './features';

export interface DataTableColumnHeaderProps<TData extends RowData, TValue> {
  // biome-ignore lint/suspicious/noExplicitAny: accepts any cell value type.
  column: Column<DataTableFeatures, TData, TValue & any>;
  title: string;
  className?: string;
  /**
   * For a table whose one order is the server's and is not in the table's sorting state (e.g. a date-only
   * list through the URL's `order`): the direction and what a click does. The table's other columns must
   * then not sort, or two arrows would show. Tables whose server sorts by any column pass `sorting` to
   * `useDataTable` instead.
   */
  serverSort?: { direction: 'asc' | 'desc'; onToggle: () => void };
}

/**
 * A header that sorts: a button naming the column, with an arrow only on the column the table is sorted by
 * (the table's sorting state, whether the kit or the server sorts); plain text for a column that cannot sort.
 */
export function DataTableColumnHeader<TData extends RowData, TValue>({
  column,
  title,
  className,
  serverSort,
}: DataTableColumnHeaderProps<TData, TValue>) {
  if (!serverSort && !column.getCanSort()) return <span className={className}>{title}</span>;
  const direction = serverSort ? serverSort.direction : column.getIsSorted();
  const Icon = direction === 'asc' ? ArrowUp : direction === 'desc' ? ArrowDown : ChevronsUpDown;
  const nextOrder = serverSort
    ? serverSort.direction === 'asc'
      ? 'desc'
      : 'asc'
    : column.getNextSortingOrder();
  const next = nextOrder === 'asc' ? 'ascending' : nextOrder === 'desc' ? 'descending' : 'unsorted';
  return (
    <button
      type="button"
      onClick={serverSort ? serverSort.onToggle : column.getToggleSortingHandler()}
      title={`Sort ${next}`}
      className={cn(
        '-mx-2 inline-flex h-8 items-center gap-1 rounded-md px-2 font-medium hover:bg-accent hover:text-accent-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        className,
      )}
    >
      {title}
      <Icon aria-hidden className={cn('size-3.5', direction ? 'text-foreground' : 'text-muted-foreground')} />
    </button>
  );
}
