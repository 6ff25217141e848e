'use client';
import type { Cell, Row, RowData } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, type MouseEvent, memo, type ReactElement, type ReactNode, useRef } from 'react';
import { cn } from '@/lib/utils';
import type { DataTableFeatures } from './features';
import type { DataTableInstance } from './use-data-table';

export interface DataTableProps<TData extends RowData> {
  table: DataTableInstance<TData>;
  /** Accessible name of the table. */
  label: string;
  /** Row activation (click, Enter or Space on a focused row), e.g. opening a detail drawer. */
  onRowActivate?: (row: TData) => void;
  /** Accessible name of an activatable row, e.g. "Transaction 1234, open details". */
  rowLabel?: (row: TData) => string;
  /** Shown in place of the rows when there are none. */
  empty?: ReactNode;
  /** Above this many rows the body is virtualized (DESIGN.md budgets: smooth at 50,000). */
  virtualizeAbove?: number;
  /** Dims the rows while a refetch is running, so stale rows are visibly stale. */
  isFetching?: boolean;
  /**
   * Names the scroll box and lets the keyboard reach it, for a table wider than a phone whose rows hold
   * nothing focusable (axe: scrollable-region-focusable). Tables with links or activatable rows need none.
   */
  scrollRegionLabel?: string;
  className?: string;
}

const ROW_HEIGHT = 41;

function ariaSortOf(sorted: false | 'asc' | 'desc'): 'ascending' | 'descending' | undefined {
  if (sorted === 'asc') return 'ascending';
  if (sorted === 'desc') return 'descending';
  return undefined;
}

// A click on a control inside the row (link, copy button, checkbox) does its own thing, not the row's.
function fromInteractiveChild(event: MouseEvent | KeyboardEvent): boolean {
  const target = event.target as HTMLElement;
  const interactive = target.closest('a,button,input,select,textarea,label,[role="menuitem"]');
  return interactive !== null && interactive !== event.currentTarget;
}

interface DataTableRowProps<TData extends RowData> {
  row: Row<DataTableFeatures, TData>;
  /** The row's visible cells: the same array until the row or the column visibility changes. */
  cells: Cell<DataTableFeatures, TData, unknown>[];
  selected: boolean;
  /** Position in a virtualized body. */
  index?: number;
  virtual: boolean;
  measure: (node: Element | null) => void;
  onRowActivate?: (row: TData) => void;
  rowLabel?: (row: TData) => string;
  FlexRender: DataTableInstance<TData>['FlexRender'];
}

/**
 * One body row, rendered again only when one of its props changes. A virtualized body renders on every
 * scroll event; the rows already on screen are then left alone and only those scrolling in render, which
 * keeps a scroll frame short however many columns a row has.
 */
const DataTableRow = memo(function DataTableRow<TData extends RowData>({
  row,
  cells,
  selected,
  index,
  virtual,
  measure,
  onRowActivate,
  rowLabel,
  FlexRender,
}: DataTableRowProps<TData>) {
  const activatable = Boolean(onRowActivate);
  return (
    <tr
      data-index={index}
      aria-rowindex={virtual && index !== undefined ? index + 2 : undefined}
      ref={virtual ? measure : undefined}
      data-state={selected ? 'selected' : undefined}
      tabIndex={activatable ? 0 : undefined}
      aria-label={activatable && rowLabel ? rowLabel(row.original) : undefined}
      className={cn(
        'border-b transition-colors hover:bg-muted/50 data-[state=selected]:bg-muted',
        activatable &&
          'cursor-pointer focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring',
      )}
      onClick={
        activatable
          ? (event) => {
              if (!fromInteractiveChild(event)) onRowActivate?.(row.original);
            }
          : undefined
      }
      onKeyDown={
        activatable
          ? (event) => {
              if ((event.key === 'Enter' || event.key === ' ') && event.target === event.currentTarget) {
                event.preventDefault();
                onRowActivate?.(row.original);
              }
            }
          : undefined
      }
    >
      {cells.map((cell) => (
        <td key={cell.id} className={cn('px-3 py-2 align-middle', cell.column.columnDef.meta?.className)}>
          <FlexRender cell={cell} />
        </td>
      ))}
    </tr>
  );
}) as <TData extends RowData>(props: DataTableRowProps<TData>) => ReactElement;

export function DataTable<TData extends RowData>({
  table,
  label,
  onRowActivate,
  rowLabel,
  empty,
  virtualizeAbove = 200,
  isFetching = false,
  scrollRegionLabel,
  className,
}: DataTableProps<TData>) {
  const scrollRef = useRef<HTMLElement>(null);
  const rows = table.getRowModel().rows;
  const virtual = rows.length > virtualizeAbove;
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => rows[index]?.id ?? index,
    overscan: 12,
  });
  const columnCount = table.getVisibleLeafColumns().length;

  const renderRow = (row: Row<DataTableFeatures, TData>, index?: number) => (
    <DataTableRow
      key={row.id}
      row={row}
      cells={row.getVisibleCells()}
      selected={row.getIsSelected()}
      index={index}
      virtual={virtual}
      measure={virtualizer.measureElement}
      onRowActivate={onRowActivate}
      rowLabel={rowLabel}
      FlexRender={table.FlexRender}
    />
  );

  const items = virtual ? virtualizer.getVirtualItems() : [];
  const paddingTop = items.length > 0 ? (items[0]?.start ?? 0) : 0;
  const paddingBottom =
    items.length > 0 ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;

  return (
    <section
      ref={scrollRef}
      className={cn(
        'relative w-full overflow-auto rounded-md border',
        virtual && 'max-h-[70vh]',
        scrollRegionLabel && 'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        className,
      )}
      // Named, it is a region landmark; unnamed, a section is a plain box.
      aria-label={scrollRegionLabel}
      // A scrolling region must be reachable by keyboard (axe: scrollable-region-focusable).
      tabIndex={scrollRegionLabel !== undefined || (virtual && !onRowActivate) ? 0 : undefined}
    >
      {/* A refresh shows as a thin bar, not as dimmed rows: dimming would put the text below contrast. */}
      {isFetching ? (
        <div aria-hidden className="absolute inset-x-0 top-0 z-20 h-0.5 animate-pulse bg-primary" />
      ) : null}
      <table
        aria-label={label}
        aria-busy={isFetching || undefined}
        aria-rowcount={virtual ? rows.length + 1 : undefined}
        className="w-full caption-bottom text-sm"
      >
        <thead className={cn('[&_tr]:border-b', virtual && 'sticky top-0 z-10 bg-background')}>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th
                  key={header.id}
                  colSpan={header.colSpan}
                  scope="col"
                  aria-sort={header.column.getCanSort() ? ariaSortOf(header.column.getIsSorted()) : undefined}
                  className={cn(
                    'h-10 px-3 text-left align-middle',
                    header.column.columnDef.meta?.className,
                    // The column's classes may set the cells' type (mono, small, breaking anywhere): headings keep theirs.
                    'font-sans text-sm font-medium break-normal text-muted-foreground',
                  )}
                >
                  {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody className="[&_tr:last-child]:border-0">
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columnCount} className="p-0">
                {/* On a phone the table is wider than its box: the message stays in view, not across the width. */}
                <div className="sticky left-0 max-w-[calc(100vw-2rem)]">
                  {empty ?? <p className="p-6 text-center text-muted-foreground">No results.</p>}
                </div>
              </td>
            </tr>
          ) : virtual ? (
            <>
              {paddingTop > 0 ? (
                <tr aria-hidden>
                  <td colSpan={columnCount} style={{ height: paddingTop, padding: 0 }} />
                </tr>
              ) : null}
              {items.map((item) => {
                const row = rows[item.index];
                return row ? renderRow(row, item.index) : null;
              })}
              {paddingBottom > 0 ? (
                <tr aria-hidden>
                  <td colSpan={columnCount} style={{ height: paddingBottom, padding: 0 }} />
                </tr>
              ) : null}
            </>
          ) : (
            rows.map((row) => renderRow(row))
          )}
        </tbody>
      </table>
    </section>
  );
}
