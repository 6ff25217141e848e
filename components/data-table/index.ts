// The console's table kit (TanStack Table v9 `useTable`). Typical use in a feature table:
//
//   const columns = useMemo(() => makeColumns(actions), [actions]);     // ColumnDef<DataTableFeatures, Row>[]
//   const table = useDataTable({ data: page.data, columns, getRowId: (r) => r.id, columnVisibilityKey: 'x' });
//   <DataTableToolbar actions={<DataTableViewOptions table={table} />}>...filters...</DataTableToolbar>
//   <DataTable table={table} label="…" onRowActivate={open} empty={<DataTableEmpty title="…" />} />
//   <DataTablePagination page={…} pageSize={…} totalItems={meta.totalItems} itemCount={rows.length} onPageChange={…} />
//
// Paging, server filters and server sorting live in the URL and are the caller's: a table whose server sorts
// passes `sorting` and `onSortingChange` to useDataTable (the kit then never reorders the loaded rows);
// without them the kit sorts the loaded rows.
export { DataTable, type DataTableProps } from './data-table';
export { DataTableColumnHeader } from './data-table-column-header';
export { DataTableEmpty } from './data-table-empty';
export { DataTablePagination, type DataTablePaginationProps } from './data-table-pagination';
export { selectColumn } from './data-table-select-column';
export { DataTableSkeleton } from './data-table-skeleton';
export { DataTableSearch, DataTableSelectFilter, DataTableToolbar } from './data-table-toolbar';
export { DataTableViewOptions } from './data-table-view-options';
export {
  createDataTableColumnHelper,
  type DataTableColumnMeta,
  type DataTableFeatures,
  dataTableFeatures,
} from './features';
export {
  type DataTableInstance,
  type UseDataTableOptions,
  useDataTable,
  usePersistentColumnVisibility,
} from './use-data-table';
