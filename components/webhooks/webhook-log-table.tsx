'use client';
// A wallet's webhook delivery log: server-paged and filtered through the URL, refreshed by live events,
// with a detail dialog per delivery and bulk resend of selected failed deliveries.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { usePathname, useSearchParams } from 'next/navigation';
import { useId, useMemo, useState } from 'react';
import { DataTable } from '@/components/data-table/data-table';
import { DataTablePagination } from '@/components/data-table/data-table-pagination';
import { createDataTableColumnHelper } from '@/components/data-table/features';
import { useDataTable } from '@/components/data-table/use-data-table';
import { useLiveRefetchInterval } from '@/components/live/live-status';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import type { WebhookLog } from '@/lib/custody/schemas';
import { formatDateTime } from '@/lib/format';
import { webhookKeys } from '@/lib/query-keys';
import {
  parseWebhookLogQuery,
  WEBHOOK_LOG_PAGE_SIZES,
  type WebhookLogPage,
  type WebhookLogQuery,
  webhookLogSearch,
} from '@/lib/validation/webhooks';
import { BulkResendDialog } from './bulk-resend-dialog';
import { DeliveryStatusBadge, describeResponse } from './delivery-status';
import { WebhookDeliveryDialog } from './webhook-delivery-dialog';

export interface WebhookLogTableProps {
  walletId: string;
  /** The page the server rendered, for the query in the URL at that time. */
  initialPage: WebhookLogPage;
  initialQuery: WebhookLogQuery;
  canResend: boolean;
  canRetry: boolean;
}

async function fetchLog(walletId: string, query: WebhookLogQuery): Promise<WebhookLogPage> {
  const search = webhookLogSearch(query);
  const res = await fetch(
    `/api/wallets/${encodeURIComponent(walletId)}/webhooks${search ? `?${search}` : ''}`,
    {
      headers: { accept: 'application/json' },
    },
  );
  const body = (await res.json().catch(() => null)) as (WebhookLogPage & { message?: string }) | null;
  if (!res.ok || !body)
    throw new Error(body?.message ?? `Could not load the webhook log (HTTP ${res.status})`);
  return body;
}

const column = createDataTableColumnHelper<WebhookLog>();

function sameQuery(a: WebhookLogQuery, b: WebhookLogQuery) {
  return webhookLogSearch(a) === webhookLogSearch(b);
}

export function WebhookLogTable({
  walletId,
  initialPage,
  initialQuery,
  canResend,
  canRetry,
}: WebhookLogTableProps) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const query = useMemo(
    () => parseWebhookLogQuery(new URLSearchParams(searchParams.toString())),
    [searchParams],
  );
  const refetchInterval = useLiveRefetchInterval();
  const result = useQuery({
    queryKey: webhookKeys.list(walletId, query),
    queryFn: () => fetchLog(walletId, query),
    initialData: sameQuery(query, initialQuery) ? initialPage : undefined,
    placeholderData: keepPreviousData,
    refetchInterval,
  });
  const page = result.data;
  const [openId, setOpenId] = useState<string | null>(null);
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const statusId = useId();
  const eventId = useId();

  const navigate = (next: Partial<WebhookLogQuery>) => {
    const merged = { ...query, ...next };
    // A new filter or page size starts at page 1; selection belongs to the rows that were on screen.
    if (!('page' in next)) merged.page = 1;
    setRowSelection({});
    const search = webhookLogSearch(merged);
    // Native history keeps the URL shareable without a server round trip; Next syncs useSearchParams.
    window.history.replaceState(null, '', `${pathname}${search ? `?${search}` : ''}`);
  };

  const columns = useMemo(
    () => [
      ...(canResend
        ? [
            column.display({
              id: 'select',
              header: ({ table }) => (
                <input
                  type="checkbox"
                  aria-label="Select all failed deliveries on this page"
                  className="size-4 accent-primary"
                  checked={table.getIsAllPageRowsSelected()}
                  ref={(el) => {
                    if (el)
                      el.indeterminate =
                        table.getIsSomePageRowsSelected() && !table.getIsAllPageRowsSelected();
                  }}
                  disabled={!table.getRowModel().rows.some((r) => r.getCanSelect())}
                  onChange={(e) => table.toggleAllPageRowsSelected(e.target.checked)}
                />
              ),
              cell: ({ row }) =>
                row.getCanSelect() ? (
                  <input
                    type="checkbox"
                    aria-label={`Select ${row.original.event} delivery of ${row.original.reference}`}
                    className="size-4 accent-primary"
                    checked={row.getIsSelected()}
                    onChange={(e) => row.toggleSelected(e.target.checked)}
                  />
                ) : null,
              meta: { className: 'w-10' },
            }),
          ]
        : []),
      column.accessor('event', {
        header: 'Event',
        cell: (info) => <span className="font-medium">{info.getValue()}</span>,
        meta: { label: 'Event' },
      }),
      column.accessor('status', {
        header: 'Status',
        cell: (info) => <DeliveryStatusBadge status={info.getValue()} />,
        meta: { label: 'Status' },
      }),
      column.accessor('attempts', {
        header: 'Attempts',
        meta: { label: 'Attempts', className: 'text-right' },
      }),
      column.accessor((row) => describeResponse(row.response), {
        id: 'response',
        header: 'Response',
        cell: (info) => <span className="line-clamp-1 max-w-xs break-all">{info.getValue()}</span>,
        meta: { label: 'Response' },
      }),
      column.accessor((row) => row.payload.status, {
        id: 'transactionStatus',
        header: 'Transaction',
        cell: (info) => (
          <span className="whitespace-nowrap">
            <span className="font-mono text-xs" title={info.row.original.payload.id}>
              {info.row.original.payload.id.slice(0, 8)}
            </span>{' '}
            {info.row.original.payload.type} · {info.getValue()}
          </span>
        ),
        meta: { label: 'Transaction' },
      }),
      column.accessor('updatedAt', {
        header: 'Last attempt',
        cell: (info) => <span className="whitespace-nowrap">{formatDateTime(info.getValue())}</span>,
        meta: { label: 'Last attempt' },
      }),
    ],
    [canResend],
  );

  const table = useDataTable({
    data: page?.data ?? [],
    columns,
    getRowId: (row) => row.id,
    enableRowSelection: canResend ? (row) => row.status === 'failed' : false,
    rowSelection,
    onRowSelectionChange: setRowSelection,
  });
  const selected = table.getSelectedRowModel().rows.map((r) => r.original);
  const open = page?.data.find((d) => d.id === openId) ?? null;
  const events = [...new Set([...(page?.events ?? []), ...(query.event ? [query.event] : [])])].sort();

  return (
    <div className="grid gap-3">
      <search className="flex flex-wrap items-end gap-3" aria-label="Filter deliveries">
        <div className="grid gap-1.5">
          <Label htmlFor={statusId}>Delivery status</Label>
          <NativeSelect
            id={statusId}
            className="w-40"
            value={query.status ?? ''}
            onChange={(e) => navigate({ status: (e.target.value || undefined) as WebhookLogQuery['status'] })}
          >
            <option value="">All</option>
            <option value="success">Delivered</option>
            <option value="failed">Failed</option>
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={eventId}>Event</Label>
          <NativeSelect
            id={eventId}
            className="w-56"
            value={query.event ?? ''}
            onChange={(e) => navigate({ event: e.target.value || undefined })}
          >
            <option value="">All events</option>
            {events.map((event) => (
              <option key={event} value={event}>
                {event}
              </option>
            ))}
          </NativeSelect>
        </div>
        {query.status || query.event ? (
          <Button variant="ghost" size="sm" onClick={() => navigate({ status: undefined, event: undefined })}>
            Clear filters
          </Button>
        ) : null}
        {canResend ? (
          <div className="ml-auto">
            <BulkResendDialog walletId={walletId} selected={selected} onDone={() => setRowSelection({})} />
          </div>
        ) : null}
      </search>

      {result.isError && !page ? (
        <Alert variant="destructive">
          <AlertDescription>{result.error.message}</AlertDescription>
        </Alert>
      ) : null}
      {page?.truncated ? (
        <p className="text-sm text-muted-foreground">
          Filters searched the newest 2,000 deliveries; older ones are not shown.
        </p>
      ) : null}

      <DataTable
        table={table}
        label="Webhook deliveries"
        isFetching={result.isFetching && !result.isPending}
        onRowActivate={(row) => setOpenId(row.id)}
        rowLabel={(row) =>
          `${row.event} ${row.status === 'success' ? 'delivered' : 'failed'}, transaction ${row.payload.id.slice(0, 8)}, ${formatDateTime(row.updatedAt)}, open details`
        }
        empty={
          <p className="p-6 text-center text-muted-foreground">
            {query.status || query.event
              ? 'No deliveries match these filters.'
              : 'No webhook has been delivered for this wallet yet.'}
          </p>
        }
      />

      {page ? (
        <DataTablePagination
          page={page.meta.currentPage}
          pageSize={query.limit}
          totalItems={page.meta.totalItems}
          itemCount={page.data.length}
          pageSizes={WEBHOOK_LOG_PAGE_SIZES}
          onPageChange={(p) => navigate({ page: p })}
          onPageSizeChange={(limit) => navigate({ limit })}
          itemLabel="deliveries"
          disabled={result.isPlaceholderData}
        />
      ) : null}

      <WebhookDeliveryDialog
        walletId={walletId}
        delivery={open}
        onOpenChange={(isOpen) => !isOpen && setOpenId(null)}
        canResend={canResend}
        canRetry={canRetry}
      />
    </div>
  );
}
