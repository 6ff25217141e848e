'use client';
// A wallet's address book: the console's own entries (with their cooling-off) beside the service's
// whitelisted addresses and beneficiaries. Filters live in the URL; the server page applies them.
import type { ColumnDef } from '@tanstack/react-table';
import { DownloadIcon } from 'lucide-react';
import { useQueryStates } from 'nuqs';
import { useMemo, useTransition } from 'react';
import { DataTable } from '@/components/data-table/data-table';
import { DataTableEmpty } from '@/components/data-table/data-table-empty';
import {
  DataTableSearch,
  DataTableSelectFilter,
  DataTableToolbar,
} from '@/components/data-table/data-table-toolbar';
import { createDataTableColumnHelper, type DataTableFeatures } from '@/components/data-table/features';
import { useDataTable } from '@/components/data-table/use-data-table';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import {
  ADDRESS_BOOK_SOURCE_LABELS,
  type AddressBookEntryView,
  type AddressBookSource,
} from '@/lib/approvals/address-book';
import { formatDateTime } from '@/lib/format';
import { EntryDialog } from './entry-dialog';
import { ImportDialog } from './import-dialog';
import { ADDRESS_BOOK_SOURCES, addressBookSearchParams } from './search-params';

/** An entry with its state at the server's render time (so server and browser render the same words). */
export type AddressBookRow = AddressBookEntryView & { coolingOff: boolean };

export interface AddressBookTableProps {
  walletId: string;
  chain: { name: string; isEvmCompatible: boolean };
  rows: AddressBookRow[];
  /** Rows in the book before the filters. */
  total: number;
  canEdit: boolean;
}

const helper = createDataTableColumnHelper<AddressBookRow>();

function columns(
  walletId: string,
  chain: string,
  canEdit: boolean,
): ColumnDef<DataTableFeatures, AddressBookRow, unknown>[] {
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
      meta: { label: 'Address' },
      cell: ({ row }) => (
        <span className="flex items-center gap-1">
          <span className="min-w-48 font-mono text-xs break-all">{row.original.address}</span>
          <CopyButton value={row.original.address} label={`Copy the address of ${row.original.name}`} />
        </span>
      ),
    }),
    helper.display({
      id: 'chain',
      header: 'Chain',
      meta: { label: 'Chain', className: 'text-xs' },
      cell: ({ row }) => row.original.chain,
    }),
    helper.display({
      id: 'tags',
      header: 'Tags',
      meta: { label: 'Tags' },
      cell: ({ row }) => (
        <div className="flex flex-wrap gap-1">
          {row.original.tags.map((t) => (
            <Badge key={t} variant="outline">
              {t}
            </Badge>
          ))}
        </div>
      ),
    }),
    helper.display({
      id: 'status',
      header: 'Status',
      meta: { label: 'Status', className: 'text-xs' },
      cell: ({ row }) => {
        const r = row.original;
        return (
          <div className="grid gap-1">
            <span>{ADDRESS_BOOK_SOURCE_LABELS[r.source]}</span>
            {r.source === 'console' ? (
              r.coolingOff ? (
                <Badge variant="warning">Cooling off until {formatDateTime(r.usableFrom)}</Badge>
              ) : (
                <Badge variant="success">Can receive money</Badge>
              )
            ) : null}
          </div>
        );
      },
    }),
    helper.display({
      id: 'since',
      header: 'Added',
      meta: { label: 'Added', className: 'whitespace-nowrap text-xs' },
      cell: ({ row }) => formatDateTime(row.original.since),
    }),
    helper.display({
      id: 'notes',
      header: 'Notes',
      meta: { label: 'Notes', className: 'text-xs' },
      cell: ({ row }) => row.original.notes || '—',
    }),
    helper.display({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      meta: { label: 'Actions', className: 'text-right' },
      cell: ({ row }) =>
        canEdit && row.original.source === 'console' ? (
          <EntryDialog walletId={walletId} defaultChain={chain} entry={row.original} />
        ) : null,
    }),
  ]) as ColumnDef<DataTableFeatures, AddressBookRow, unknown>[];
}

export function AddressBookTable({ walletId, chain, rows, total, canEdit }: AddressBookTableProps) {
  const [navigating, startTransition] = useTransition();
  const [url, setUrl] = useQueryStates(addressBookSearchParams, {
    history: 'push',
    scroll: false,
    shallow: false,
    startTransition,
  });
  const cols = useMemo(() => columns(walletId, chain.name, canEdit), [walletId, chain.name, canEdit]);
  const table = useDataTable({ data: rows, columns: cols, getRowId: (r) => r.id });
  const filtered = Boolean(url.q || url.source);
  const exportHref = `/api/wallets/${encodeURIComponent(walletId)}/address-book/export.csv`;
  return (
    <section aria-label="Address book" className="grid gap-2">
      <DataTableToolbar
        onReset={filtered ? () => void setUrl({ q: null, source: null }) : undefined}
        actions={
          <>
            {canEdit ? (
              <>
                <EntryDialog walletId={walletId} defaultChain={chain.name} />
                <ImportDialog
                  walletId={walletId}
                  defaultChain={chain.name}
                  isEvmCompatible={chain.isEvmCompatible}
                />
              </>
            ) : null}
            <Button variant="outline" asChild>
              <a href={exportHref} download>
                <DownloadIcon aria-hidden /> Export CSV
              </a>
            </Button>
          </>
        }
      >
        <DataTableSearch
          label="Search the book"
          placeholder="Name, address, tag"
          value={url.q}
          onSearch={(q) => void setUrl({ q: q || null })}
        />
        <DataTableSelectFilter
          label="Source"
          value={url.source ?? ''}
          options={ADDRESS_BOOK_SOURCES.map((s: AddressBookSource) => ({
            value: s,
            label: ADDRESS_BOOK_SOURCE_LABELS[s],
          }))}
          onChange={(v) =>
            void setUrl({
              source: (ADDRESS_BOOK_SOURCES as readonly string[]).includes(v)
                ? (v as AddressBookSource)
                : null,
            })
          }
        />
      </DataTableToolbar>
      <DataTable
        table={table}
        label="Address book entries"
        isFetching={navigating}
        scrollRegionLabel="Address book table"
        empty={
          <DataTableEmpty
            title={total === 0 ? 'The address book is empty' : 'No entry matches the filters'}
            description={
              total === 0
                ? 'Add an entry or import a CSV file; the service’s whitelisted addresses and beneficiaries show here too.'
                : 'Change or reset the filters to see the other entries.'
            }
          />
        }
      />
    </section>
  );
}
