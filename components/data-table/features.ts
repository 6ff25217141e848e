// The feature set every console table registers (TanStack Table v9 `tableFeatures`). One shared object, so
// column helpers, the kit's components and each feature table agree on the same types.
import {
  columnVisibilityFeature,
  createColumnHelper,
  createSortedRowModel,
  type RowData,
  rowSelectionFeature,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  sortFn_datetime,
  sortFn_text,
  tableFeatures,
} from '@tanstack/react-table';

/** What a column may tell the kit beyond TanStack's own options. */
export interface DataTableColumnMeta {
  /** Human name, used by the column visibility menu and the sort button's accessible name. */
  label?: string;
  /** Extra classes for both the header and the cells of the column (e.g. `text-right`); the header keeps its own font, size and colour. */
  className?: string;
}

export const dataTableFeatures = tableFeatures({
  columnVisibilityFeature,
  rowSelectionFeature,
  rowSortingFeature,
  // Used only by tables that sort their loaded rows; a server-sorted table sets `manualSorting` (useDataTable).
  sortedRowModel: createSortedRowModel(),
  sortFns: {
    alphanumeric: sortFn_alphanumeric,
    basic: sortFn_basic,
    datetime: sortFn_datetime,
    text: sortFn_text,
  },
  columnMeta: {} as DataTableColumnMeta,
});

export type DataTableFeatures = typeof dataTableFeatures;

/** Column helper bound to the kit's feature set. */
export function createDataTableColumnHelper<TData extends RowData>() {
  return createColumnHelper<DataTableFeatures, TData>();
}
