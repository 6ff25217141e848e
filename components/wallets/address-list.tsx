'use client';
import type { ColumnDef } from '@tanstack/react-table';
import { PlusIcon, SearchIcon } from 'lucide-react';
import { useQueryStates } from 'nuqs';
import { useEffect, useMemo, useState, useTransition } from 'react';
import { DataTable } from '@/components/data-table/data-table';
import { createDataTableColumnHelper, type DataTableFeatures } from '@/components/data-table/features';
import { useDataTable } from '@/components/data-table/use-data-table';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input, NativeSelect } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Link } from '@/components/ui/link';
import { Skeleton } from '@/components/ui/skeleton';
import { ADDRESS_TYPES } from '@/lib/custody/constants';
import type { Address } from '@/lib/custody/schemas';
import { formatDate } from '@/lib/format';
import {
  ADDRESS_PAGE_SIZES,
  type AddressFilters,
  addressListSearchParams,
} from '@/lib/validation/address-search';
import type { AddressPage } from '@/lib/wallet-view';
import { AddressText } from './address-text';
import { AmlBadge } from './aml-badge';
import { useAddressPage } from './queries';
import { ServiceError } from './service-error';

export interface AddressListProps {
  walletId: string;
  blockchain: string;
  network: string;
  filters: AddressFilters;
  initial?: AddressPage;
  initialError?: string;
  /** Whether the person may create deposit addresses (the action checks again). */
  canCreate?: boolean;
}

const helper = createDataTableColumnHelper<Address>();
const EMPTY: Address[] = [];

function addressColumns(
  base: string,
  blockchain: string,
  network: string,
): ColumnDef<DataTableFeatures, Address, unknown>[] {
  return helper.columns([
    helper.display({
      id: 'name',
      header: 'Name',
      meta: { label: 'Name', className: 'font-medium' },
      cell: ({ row }) => (
        <Link
          href={`${base}/${encodeURIComponent(row.original.id)}`}
          className="underline-offset-4 hover:underline"
        >
          {row.original.name ?? 'Unnamed address'}
        </Link>
      ),
    }),
    helper.display({
      id: 'address',
      header: 'Address',
      meta: { label: 'Address' },
      cell: ({ row }) => (
        <AddressText value={row.original.address} blockchain={blockchain} network={network} />
      ),
    }),
    helper.display({
      id: 'type',
      header: 'Type',
      meta: { label: 'Type' },
      cell: ({ row }) => {
        const type = row.original.type;
        return (
          <Badge variant="outline">
            {type === 'INTERNAL' ? 'Internal' : type === 'EXTERNAL' ? 'External' : type}
          </Badge>
        );
      },
    }),
    helper.display({
      id: 'aml',
      header: 'AML',
      meta: { label: 'AML' },
      cell: ({ row }) => <AmlBadge aml={row.original.configurations.aml} />,
    }),
    helper.display({
      id: 'autoSweep',
      header: 'Auto-sweep',
      meta: { label: 'Auto-sweep' },
      cell: ({ row }) => (row.original.configurations.disableAutoSweep ? 'Off' : 'On'),
    }),
    helper.display({
      id: 'createdAt',
      header: 'Created',
      meta: { label: 'Created', className: 'whitespace-nowrap' },
      cell: ({ row }) => formatDate(row.original.createdAt),
    }),
  ]) as ColumnDef<DataTableFeatures, Address, unknown>[];
}

/**
 * The wallet's addresses: search, type filter and paging live in the URL (nuqs, the parsers the server page
 * reads with); a change re-renders the server page, which pages and filters.
 */
export function AddressList({
  walletId,
  blockchain,
  network,
  filters,
  initial,
  initialError,
  canCreate = false,
}: AddressListProps) {
  const [navigating, startTransition] = useTransition();
  const [url, setUrl] = useQueryStates(addressListSearchParams, {
    history: 'push',
    scroll: false,
    shallow: false,
    startTransition,
  });
  const [search, setSearch] = useState(url.search ?? '');
  useEffect(() => setSearch(url.search ?? ''), [url.search]);
  // The rows are those of the server's filters: they change with the server render the URL change starts.
  const query = useAddressPage(walletId, filters, initial);
  const base = `/wallets/${encodeURIComponent(walletId)}/addresses`;
  const columns = useMemo(() => addressColumns(base, blockchain, network), [base, blockchain, network]);

  const page = query.data;
  const table = useDataTable({ data: page?.data ?? EMPTY, columns, getRowId: (a) => a.id });
  const error = page ? null : (query.error?.message ?? initialError ?? null);
  const meta = page?.meta;
  const totalPages = Math.max(1, meta?.totalPages ?? 1);

  return (
    <section aria-labelledby="addresses-heading" className="grid gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="addresses-heading" className="text-xl font-semibold tracking-tight">
            Addresses
          </h2>
          <p className="text-sm text-muted-foreground">
            Child addresses (internal) and whitelisted addresses (external).
          </p>
        </div>
        {canCreate ? (
          <Button asChild variant="secondary">
            <Link href={`${base}/new`}>
              <PlusIcon aria-hidden />
              New deposit address
            </Link>
          </Button>
        ) : null}
      </div>
      <form
        aria-label="Filter addresses"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void setUrl({ search: search.trim() || null, page: 1 });
        }}
      >
        <div className="grid min-w-0 max-w-full gap-1.5">
          <Label htmlFor="address-search">Search by name or address</Label>
          <div className="flex min-w-0 gap-2">
            <Input
              id="address-search"
              type="search"
              value={search}
              maxLength={100}
              onChange={(e) => setSearch(e.target.value)}
              className="w-72 min-w-0 max-w-full"
              placeholder="e.g. Operating float or 0x12…"
            />
            <Button type="submit" variant="secondary">
              <SearchIcon aria-hidden />
              Search
            </Button>
          </div>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="address-type">Type</Label>
          <NativeSelect
            id="address-type"
            value={url.type ?? ''}
            onChange={(e) =>
              void setUrl({ type: (e.target.value || null) as AddressFilters['type'] | null, page: 1 })
            }
            className="w-40"
          >
            <option value="">All types</option>
            {ADDRESS_TYPES.map((t) => (
              <option key={t} value={t}>
                {t === 'INTERNAL' ? 'Internal' : 'External'}
              </option>
            ))}
          </NativeSelect>
        </div>
        {url.search || url.type ? (
          <Button
            type="button"
            variant="ghost"
            onClick={() => void setUrl({ search: null, type: null, page: 1 })}
          >
            Clear filters
          </Button>
        ) : null}
      </form>

      {error ? (
        <ServiceError
          title="Could not read the addresses"
          message={error}
          onRetry={() => void query.refetch()}
        />
      ) : !page ? (
        <div role="status" aria-label="Loading addresses" className="grid gap-2">
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </div>
      ) : page.source === 'known' && page.data.length === 0 ? (
        <p className="rounded-md border p-8 text-center text-sm text-muted-foreground">
          This custody service does not list a wallet&apos;s addresses, and the console has not seen any of
          this wallet&apos;s child addresses yet (in its requests or webhooks). Open an address from a
          transaction.
        </p>
      ) : page.data.length === 0 ? (
        <div className="rounded-md border p-8 text-center">
          <p className="font-medium">No addresses match.</p>
          <p className="mt-1 text-sm text-muted-foreground">Try another search or type.</p>
        </div>
      ) : (
        // Block layout, not grid: a grid item would grow to the table's width on a phone.
        <div className="min-w-0 space-y-2">
          {page.source === 'known' ? (
            <p className="text-sm text-muted-foreground">
              This custody service does not list a wallet&apos;s addresses: these are the child addresses the
              console has seen in its requests and webhooks.
            </p>
          ) : null}
          <DataTable table={table} label="Addresses" isFetching={navigating || query.isFetching} />
        </div>
      )}

      {meta ? (
        <nav aria-label="Address pages" className="flex flex-wrap items-center justify-between gap-3 text-sm">
          <p className="text-muted-foreground" aria-live="polite">
            Page {meta.currentPage} of {totalPages} · {meta.totalItems}{' '}
            {meta.totalItems === 1 ? 'address' : 'addresses'}
          </p>
          <div className="flex items-center gap-2">
            <Label htmlFor="address-page-size" className="text-muted-foreground">
              Rows per page
            </Label>
            <NativeSelect
              id="address-page-size"
              className="w-20"
              value={String(url.limit)}
              onChange={(e) =>
                void setUrl({ limit: Number(e.target.value) as (typeof ADDRESS_PAGE_SIZES)[number], page: 1 })
              }
            >
              {ADDRESS_PAGE_SIZES.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </NativeSelect>
            <Button
              variant="outline"
              size="sm"
              disabled={filters.page <= 1 || navigating}
              onClick={() => void setUrl({ page: filters.page - 1 })}
            >
              Previous
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={filters.page >= totalPages || navigating}
              onClick={() => void setUrl({ page: filters.page + 1 })}
            >
              Next
            </Button>
          </div>
        </nav>
      ) : null}
    </section>
  );
}
