'use client';
import type { ColumnDef, RowData } from '@tanstack/react-table';
import type { DataTableFeatures } from './features';

/**
 * A checkbox column for bulk actions. `rowName` gives each checkbox its accessible name
 * ("Select delivery 1a2b…"); the header checkbox selects the loaded page.
 */
export function selectColumn<TData extends RowData>(
  rowName: (row: TData) => string,
): ColumnDef<DataTableFeatures, TData, unknown> {
  return {
    id: 'select',
    enableSorting: false,
    enableHiding: false,
    meta: { className: 'w-10' },
    header: ({ table }) => (
      <input
        type="checkbox"
        aria-label="Select all rows on this page"
        className="size-4 accent-primary"
        checked={table.getIsAllPageRowsSelected()}
        ref={(el) => {
          if (el) el.indeterminate = table.getIsSomePageRowsSelected() && !table.getIsAllPageRowsSelected();
        }}
        onChange={table.getToggleAllPageRowsSelectedHandler()}
      />
    ),
    cell: ({ row }) => (
      <input
        type="checkbox"
        aria-label={`Select ${rowName(row.original)}`}
        className="size-4 accent-primary"
        checked={row.getIsSelected()}
        disabled={!row.getCanSelect()}
        onChange={row.getToggleSelectedHandler()}
      />
    ),
  };
}
