'use client';
import { SearchIcon } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useState, useTransition } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input, NativeSelect } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ADDRESS_TYPES } from '@/lib/custody/schemas';
import { formatDate } from '@/lib/format';
import { ADDRESS_PAGE_SIZES, type AddressFilters, addressFiltersToQuery } from '@/lib/validation/wallets';
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
}

/** The wallet's addresses: search, type filter and paging live in the URL; the server pages and filters. */
export function AddressList({
  walletId,
  blockchain,
  network,
  filters,
  initial,
  initialError,
}: AddressListProps) {
  const router = useRouter();
  const [navigating, startNavigation] = useTransition();
  const [search, setSearch] = useState(filters.search ?? '');
  useEffect(() => setSearch(filters.search ?? ''), [filters.search]);
  const query = useAddressPage(walletId, filters, initial);
  const base = `/wallets/${encodeURIComponent(walletId)}/addresses`;

  const go = (next: Partial<AddressFilters>) => {
    const merged = { ...filters, ...next };
    startNavigation(() => router.push(`${base}${addressFiltersToQuery(merged)}`, { scroll: false }));
  };

  const page = query.data;
  const error = page ? null : (query.error?.message ?? initialError ?? null);
  const meta = page?.meta;
  const totalPages = Math.max(1, meta?.totalPages ?? 1);

  return (
    <section aria-labelledby="addresses-heading" className="grid gap-4">
      <div>
        <h2 id="addresses-heading" className="text-xl font-semibold tracking-tight">
          Addresses
        </h2>
        <p className="text-sm text-muted-foreground">
          Child addresses (internal) and whitelisted addresses (external).
        </p>
      </div>
      <form
        aria-label="Filter addresses"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          go({ search: search.trim() || undefined, page: 1 });
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
            value={filters.type ?? ''}
            onChange={(e) => go({ type: (e.target.value || undefined) as AddressFilters['type'], page: 1 })}
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
        {filters.search || filters.type ? (
          <Button
            type="button"
            variant="ghost"
            onClick={() => go({ search: undefined, type: undefined, page: 1 })}
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
          <div className="rounded-md border" aria-busy={navigating || query.isFetching}>
            <Table aria-labelledby="addresses-heading">
              <TableHeader>
                <TableRow>
                  <TableHead scope="col">Name</TableHead>
                  <TableHead scope="col">Address</TableHead>
                  <TableHead scope="col">Type</TableHead>
                  <TableHead scope="col">AML</TableHead>
                  <TableHead scope="col">Auto-sweep</TableHead>
                  <TableHead scope="col">Created</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {page.data.map((a) => (
                  <TableRow key={a.id}>
                    <TableCell className="font-medium">
                      <Link
                        href={`${base}/${encodeURIComponent(a.id)}`}
                        className="underline-offset-4 hover:underline"
                      >
                        {a.name ?? 'Unnamed address'}
                      </Link>
                    </TableCell>
                    <TableCell>
                      <AddressText value={a.address} blockchain={blockchain} network={network} />
                    </TableCell>
                    <TableCell>
                      <Badge variant="outline">
                        {a.type === 'INTERNAL' ? 'Internal' : a.type === 'EXTERNAL' ? 'External' : a.type}
                      </Badge>
                    </TableCell>
                    <TableCell>
                      <AmlBadge aml={a.configurations.aml} />
                    </TableCell>
                    <TableCell>{a.configurations.disableAutoSweep ? 'Off' : 'On'}</TableCell>
                    <TableCell className="whitespace-nowrap">{formatDate(a.createdAt)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
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
              value={String(filters.limit)}
              onChange={(e) => go({ limit: Number(e.target.value), page: 1 })}
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
              onClick={() => go({ page: filters.page - 1 })}
            >
              Previous
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={filters.page >= totalPages || navigating}
              onClick={() => go({ page: filters.page + 1 })}
            >
              Next
            </Button>
          </div>
        </nav>
      ) : null}
    </section>
  );
}
