'use client';
import {
  type ColumnDef,
  type ColumnVisibilityState,
  type OnChangeFn,
  type RowData,
  type RowSelectionState,
  type SortingState,
  useTable,
} from '@tanstack/react-table';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type DataTableFeatures, dataTableFeatures } from './features';

export interface UseDataTableOptions<TData extends RowData> {
  data: TData[];
  // biome-ignore lint/suspicious/noExplicitAny: column value types differ per column, as in TanStack's own helpers.
  columns: ColumnDef<DataTableFeatures, TData, any>[];
  /** Stable ids (the upstream's), so selection and focus survive refetches and re-sorting. */
  getRowId: (row: TData) => string;
  /** When set, hidden columns are remembered in localStorage under this key. */
  columnVisibilityKey?: string;
  initialColumnVisibility?: ColumnVisibilityState;
  initialSorting?: SortingState;
  /**
   * Sorting owned by the caller (normally the URL) and done by the server over the whole result: the kit
   * then shows it but does not reorder the loaded rows, and a column never goes back to unsorted.
   */
  sorting?: SortingState;
  onSortingChange?: OnChangeFn<SortingState>;
  enableRowSelection?: boolean | ((row: TData) => boolean);
  rowSelection?: RowSelectionState;
  onRowSelectionChange?: OnChangeFn<RowSelectionState>;
}

const STORAGE_PREFIX = 'data-table:columns:';

/** Column visibility that outlives a reload; read after mount so server and client render the same HTML. */
function usePersistentColumnVisibility(
  key: string | undefined,
  initial: ColumnVisibilityState = {},
): [ColumnVisibilityState, OnChangeFn<ColumnVisibilityState>] {
  const [visibility, setVisibility] = useState<ColumnVisibilityState>(initial);
  // `initial` is a default, not an input to re-apply on every render.
  const defaults = useRef(initial);
  useEffect(() => {
    if (!key) return;
    try {
      const stored = window.localStorage.getItem(STORAGE_PREFIX + key);
      if (stored) setVisibility({ ...defaults.current, ...(JSON.parse(stored) as ColumnVisibilityState) });
    } catch {
      // Storage can be unavailable (private mode) or hold garbage: the defaults are fine.
    }
  }, [key]);
  const update: OnChangeFn<ColumnVisibilityState> = useCallback(
    (updater) => {
      setVisibility((old) => {
        const next = typeof updater === 'function' ? updater(old) : updater;
        if (key) {
          try {
            window.localStorage.setItem(STORAGE_PREFIX + key, JSON.stringify(next));
          } catch {
            // Not persisted; the table still works.
          }
        }
        return next;
      });
    },
    [key],
  );
  return [visibility, update];
}

/**
 * The kit's table: TanStack Table v9 `useTable` with the shared feature set, sorting (of the loaded rows, or
 * the caller's server sort with `sorting`/`onSortingChange`), column visibility (optionally persisted) and
 * row selection. Paging and server filters stay with the caller (usually in the URL); pass the current
 * page's rows as `data`.
 */
export function useDataTable<TData extends RowData>(options: UseDataTableOptions<TData>) {
  const [ownSorting, setOwnSorting] = useState<SortingState>(options.initialSorting ?? []);
  const serverSorted = options.sorting !== undefined;
  const sorting = options.sorting ?? ownSorting;
  const setSorting = options.onSortingChange ?? setOwnSorting;
  const [columnVisibility, setColumnVisibility] = usePersistentColumnVisibility(
    options.columnVisibilityKey,
    options.initialColumnVisibility,
  );
  const [ownSelection, setOwnSelection] = useState<RowSelectionState>({});
  const rowSelection = options.rowSelection ?? ownSelection;
  const onRowSelectionChange = options.onRowSelectionChange ?? setOwnSelection;
  const enable = options.enableRowSelection ?? false;
  return useTable({
    features: dataTableFeatures,
    columns: options.columns,
    data: options.data,
    getRowId: options.getRowId,
    state: { sorting, columnVisibility, rowSelection },
    onSortingChange: setSorting,
    onColumnVisibilityChange: setColumnVisibility,
    onRowSelectionChange,
    enableRowSelection: typeof enable === 'function' ? (row) => enable(row.original) : enable,
    enableMultiSort: false,
    manualSorting: serverSorted,
    enableSortingRemoval: !serverSorted,
  });
}

export type DataTableInstance<TData extends RowData> = ReturnType<typeof useDataTable<TData>>;
