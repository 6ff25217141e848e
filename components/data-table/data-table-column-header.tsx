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
   * For a column the server sorts (e.g. createdAt through the URL's `order`): the current direction and
   * what a click does. Without it the header sorts the loaded rows on the client.
   */
  serverSort?: { direction: 'asc' | 'desc'; onToggle: () => void };
}

/** A header that sorts: a button naming the column and showing the direction; plain text otherwise. */
export function DataTableColumnHeader<TData extends RowData, TValue>({
  column,
  title,
  className,
  serverSort,
}: DataTableColumnHeaderProps<TData, TValue>) {
  const direction = serverSort ? serverSort.direction : column.getCanSort() ? column.getIsSorted() : null;
  if (direction === null) return <span className={className}>{title}</span>;
  const Icon = direction === 'asc' ? ArrowUp : direction === 'desc' ? ArrowDown : ChevronsUpDown;
  const next =
    serverSort !== undefined
      ? serverSort.direction === 'asc'
        ? 'descending'
        : 'ascending'
      : column.getNextSortingOrder() === 'asc'
        ? 'ascending'
        : column.getNextSortingOrder() === 'desc'
          ? 'descending'
          : 'unsorted';
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
