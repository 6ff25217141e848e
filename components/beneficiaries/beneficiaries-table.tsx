'use client';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DeleteBeneficiaryButton } from '@/components/beneficiaries/delete-beneficiary-button';
import { DataTable } from '@/components/data-table/data-table';
import { createDataTableColumnHelper, type DataTableFeatures } from '@/components/data-table/features';
import { useDataTable } from '@/components/data-table/use-data-table';
import { Badge } from '@/components/ui/badge';
import type { Beneficiary } from '@/lib/custody/schemas';
import { formatDateTime } from '@/lib/format';

export interface BeneficiariesTableProps {
  walletId: string;
  items: Beneficiary[];
  /** Admins only: the service deletes at once, so the button asks first. */
  canDelete: boolean;
}

const helper = createDataTableColumnHelper<Beneficiary>();

function beneficiaryColumns(
  walletId: string,
  canDelete: boolean,
): ColumnDef<DataTableFeatures, Beneficiary, unknown>[] {
  return helper.columns([
    helper.display({
      id: 'name',
      header: 'Name',
      meta: { label: 'Name', className: 'font-medium' },
      cell: ({ row }) => row.original.name,
    }),
    helper.display({
      id: 'address',
      header: 'Address',
      meta: { label: 'Address', className: 'font-mono text-xs' },
      cell: ({ row }) => row.original.address,
    }),
    helper.display({
      id: 'flags',
      header: 'Flags',
      meta: { label: 'Flags' },
      cell: ({ row }) => {
        const b = row.original;
        return (
          <div className="flex flex-wrap gap-1">
            {b.isDefault ? <Badge variant="secondary">Default</Badge> : null}
            {b.isWhitelisted ? <Badge variant="success">Whitelisted</Badge> : null}
            {b.isSettlement ? <Badge variant="outline">Settlement</Badge> : null}
            {!b.isActive ? <Badge variant="warning">Inactive</Badge> : null}
          </div>
        );
      },
    }),
    helper.display({
      id: 'settlement',
      header: 'Settlement',
      meta: { label: 'Settlement', className: 'text-xs' },
      cell: ({ row }) => row.original.settlementFrequency ?? '—',
    }),
    helper.display({
      id: 'createdAt',
      header: 'Added',
      meta: { label: 'Added', className: 'whitespace-nowrap text-xs' },
      cell: ({ row }) => formatDateTime(row.original.createdAt),
    }),
    helper.display({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      meta: { label: 'Actions', className: 'text-right' },
      cell: ({ row }) =>
        canDelete ? (
          <DeleteBeneficiaryButton
            walletId={walletId}
            beneficiaryId={row.original.id}
            name={row.original.name}
            address={row.original.address}
          />
        ) : null,
    }),
  ]) as ColumnDef<DataTableFeatures, Beneficiary, unknown>[];
}

/** A wallet's saved payout destinations, as the custody service lists them. */
export function BeneficiariesTable({ walletId, items, canDelete }: BeneficiariesTableProps) {
  const columns = useMemo(() => beneficiaryColumns(walletId, canDelete), [walletId, canDelete]);
  const table = useDataTable({ data: items, columns, getRowId: (b) => b.id });
  if (items.length === 0)
    return (
      <p className="rounded-md border p-6 text-center text-muted-foreground">
        This wallet has no beneficiaries.
      </p>
    );
  return (
    <DataTable
      table={table}
      label="Beneficiaries"
      // Without the delete buttons the rows hold nothing focusable: the scroll box itself takes the focus.
      scrollRegionLabel={canDelete ? undefined : 'Beneficiaries table'}
      className="min-w-0"
    />
  );
}
