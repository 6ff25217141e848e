'use client';
// A wallet's webhook deliveries, one row per transaction and event (every send and resend of it), paged and
// filtered on the server through the URL (nuqs), refreshed by live events, with a detail dialog per
// delivery and bulk resend of the selected failed ones.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { useQueryStates } from 'nuqs';
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
import { formatDateTime } from '@/lib/format';
import { webhookKeys } from '@/lib/query-keys';
import {
  WEBHOOK_LOG_PAGE_SIZES,
  WEBHOOK_LOG_STATUS_FILTERS,
  type WebhookDeliveryGroup,
  type WebhookLogPage,
  type WebhookLogQuery,
  type WebhookLogStatusFilter,
  webhookLogSearch,
  webhookLogSearchParams,
} from '@/lib/validation/webhooks';
import { BulkResendDialog } from './bulk-resend-dialog';
import { DeliveryStateBadge, describeAttempts, describeResponse, describeState } from './delivery-status';
import { EndpointHealthPanel } from './endpoint-health';
import { ResendFailedSinceDialog } from './resend-failed-since-dialog';
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

const column = createDataTableColumnHelper<WebhookDeliveryGroup>();

const pageSizeOf = (value: number | undefined) =>
  WEBHOOK_LOG_PAGE_SIZES.find((size) => size === value) ?? null;

const isStatusFilter = (value: string): value is WebhookLogStatusFilter =>
  (WEBHOOK_LOG_STATUS_FILTERS as readonly string[]).includes(value);

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
  // Shallow: the table fetches through the route handler, so the server page need not render again.
  const [search, setSearch] = useQueryStates(webhookLogSearchParams, { history: 'replace' });
  const query: WebhookLogQuery = useMemo(
    () => ({
      page: search.page,
      limit: search.limit,
      ...(search.status ? { status: search.status } : {}),
      ...(search.event ? { event: search.event } : {}),
    }),
    [search.page, search.limit, search.status, search.event],
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
    // A new filter or page size starts at page 1; selection belongs to the rows that were on screen.
    setRowSelection({});
    void setSearch({
      ...('page' in next ? { page: next.page ?? null } : { page: null }),
      ...('limit' in next ? { limit: pageSizeOf(next.limit) } : {}),
      ...('status' in next ? { status: next.status ?? null } : {}),
      ...('event' in next ? { event: next.event ?? null } : {}),
    });
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
                    aria-label={`Select ${row.original.event} delivery of transaction ${row.original.transactionId}`}
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
      column.accessor('state', {
        header: 'Status',
        cell: (info) => (
          <DeliveryStateBadge state={info.getValue()} status={info.row.original.latest.status} />
        ),
        meta: { label: 'Status' },
      }),
      column.accessor((row) => row.attempts.length, {
        id: 'attempts',
        header: 'Attempts',
        cell: (info) => <span className="whitespace-nowrap">{describeAttempts(info.row.original)}</span>,
        meta: { label: 'Attempts' },
      }),
      column.accessor((row) => describeResponse(row.latest.response), {
        id: 'response',
        header: 'Latest response',
        cell: (info) => <span className="line-clamp-1 max-w-xs break-all">{info.getValue()}</span>,
        meta: { label: 'Latest response' },
      }),
      column.accessor((row) => row.latest.payload.status, {
        id: 'transactionStatus',
        header: 'Transaction',
        cell: (info) => (
          <span className="whitespace-nowrap">
            <span className="font-mono text-xs" title={info.row.original.transactionId}>
              {info.row.original.transactionId.slice(0, 8)}
            </span>{' '}
            {info.row.original.latest.payload.type} · {info.getValue()}
          </span>
        ),
        meta: { label: 'Transaction' },
      }),
      column.accessor('firstSentAt', {
        header: 'First sent',
        cell: (info) => <span className="whitespace-nowrap">{formatDateTime(info.getValue())}</span>,
        meta: { label: 'First sent' },
      }),
      column.accessor('lastAttemptAt', {
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
    enableRowSelection: canResend ? (row) => row.needsAttention : false,
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
            onChange={(e) =>
              navigate({ status: isStatusFilter(e.target.value) ? e.target.value : undefined })
            }
          >
            <option value="">All</option>
            <option value="failed">Failed (needs attention)</option>
            <option value="success">Delivered</option>
            <option value="resolved">Resolved (delivered after a failure)</option>
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
          <div className="ml-auto flex flex-wrap gap-2">
            <ResendFailedSinceDialog walletId={walletId} />
            <BulkResendDialog walletId={walletId} selected={selected} onDone={() => setRowSelection({})} />
          </div>
        ) : null}
      </search>

      {result.isError && !page ? (
        <Alert variant="destructive">
          <AlertDescription>{result.error.message}</AlertDescription>
        </Alert>
      ) : null}
      {page ? <EndpointHealthPanel health={page.health} /> : null}
      {page ? (
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {page.needsAttention === 0
            ? 'No delivery needs attention.'
            : `${page.needsAttention} ${page.needsAttention === 1 ? 'delivery needs' : 'deliveries need'} attention (the latest send failed).`}
          {page.truncated
            ? ' Only the newest 2,000 log entries were read; older deliveries are not shown.'
            : null}
        </p>
      ) : null}

      <DataTable
        table={table}
        label="Webhook deliveries"
        isFetching={result.isFetching && !result.isPending}
        onRowActivate={(row) => setOpenId(row.id)}
        rowLabel={(row) =>
          `${row.event} ${describeState(row)}, transaction ${row.transactionId.slice(0, 8)}, last attempt ${formatDateTime(row.lastAttemptAt)}, open details`
        }
        empty={
          <p className="p-6 text-center text-muted-foreground">
            {query.status || query.event
              ? 'No deliveries match these filters.'
              : 'No webhook has been sent for this wallet yet.'}
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
