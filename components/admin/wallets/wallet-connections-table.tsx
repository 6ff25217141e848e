'use client';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '@/components/data-table/data-table';
import { createDataTableColumnHelper, type DataTableFeatures } from '@/components/data-table/features';
import { useDataTable } from '@/components/data-table/use-data-table';
import { Link } from '@/components/ui/link';
import { AddressText } from '@/components/wallets/address-text';
import { NetworkBadge } from '@/components/wallets/network-badge';
import { formatDateTime } from '@/lib/format';
import { RemoveWalletDialog } from './remove-wallet-dialog';
import { RotateKeyDialog } from './rotate-key-dialog';

export interface WalletConnectionRowView {
  id: string;
  name: string;
  blockchain: string;
  network: string;
  address: string;
  apiKeyLast4: string;
  createdBy: string;
  updatedAt: string;
}

const helper = createDataTableColumnHelper<WalletConnectionRowView>();

const WALLET_COLUMNS = helper.columns([
  helper.display({
    id: 'wallet',
    header: 'Wallet',
    meta: { label: 'Wallet' },
    cell: ({ row }) => (
      <>
        <Link href={`/wallets/${row.original.id}`} className="font-medium underline-offset-4 hover:underline">
          {row.original.name}
        </Link>
        <div className="font-mono text-xs text-muted-foreground">{row.original.id}</div>
      </>
    ),
  }),
  helper.display({
    id: 'chain',
    header: 'Chain',
    meta: { label: 'Chain' },
    cell: ({ row }) => (
      <div className="flex items-center gap-2">
        <span className="capitalize">{row.original.blockchain}</span>
        <NetworkBadge network={row.original.network} />
      </div>
    ),
  }),
  helper.display({
    id: 'address',
    header: 'Address',
    meta: { label: 'Address' },
    cell: ({ row }) => (
      <AddressText
        value={row.original.address}
        what="wallet address"
        blockchain={row.original.blockchain}
        network={row.original.network}
      />
    ),
  }),
  helper.display({
    id: 'apiKey',
    header: 'API key',
    meta: { label: 'API key' },
    cell: ({ row }) => (
      <>
        <span className="sr-only">Key ending </span>
        <code className="font-mono">••••{row.original.apiKeyLast4}</code>
      </>
    ),
  }),
  helper.display({
    id: 'createdBy',
    header: 'Connected by',
    meta: { label: 'Connected by' },
    cell: ({ row }) => row.original.createdBy,
  }),
  helper.display({
    id: 'updatedAt',
    header: 'Updated',
    meta: { label: 'Updated', className: 'whitespace-nowrap' },
    cell: ({ row }) => formatDateTime(row.original.updatedAt),
  }),
  helper.display({
    id: 'actions',
    header: () => <span className="sr-only">Actions</span>,
    meta: { label: 'Actions' },
    cell: ({ row }) => (
      <div className="flex justify-end gap-2">
        <RotateKeyDialog walletId={row.original.id} walletName={row.original.name} />
        <RemoveWalletDialog walletId={row.original.id} walletName={row.original.name} />
      </div>
    ),
  }),
]) as ColumnDef<DataTableFeatures, WalletConnectionRowView, unknown>[];

export function WalletConnectionsTable({ wallets }: { wallets: WalletConnectionRowView[] }) {
  const table = useDataTable({ data: wallets, columns: WALLET_COLUMNS, getRowId: (w) => w.id });
  if (wallets.length === 0) {
    return (
      <div className="rounded-md border p-10 text-center">
        <p className="font-medium">No wallets connected.</p>
        <p className="mt-1 text-sm text-muted-foreground">Connect one with its wallet id and API key.</p>
      </div>
    );
  }
  // min-w-0: as a grid item the table's box would otherwise grow to the table's width on a phone.
  return <DataTable table={table} label="Connected wallets" className="min-w-0" />;
}
