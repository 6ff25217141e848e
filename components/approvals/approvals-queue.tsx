'use client';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable } from '@/components/data-table/data-table';
import { createDataTableColumnHelper, type DataTableFeatures } from '@/components/data-table/features';
import { useDataTable } from '@/components/data-table/use-data-table';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Link } from '@/components/ui/link';
import { RelativeTime, useNow } from '@/components/ui/relative-time';
import type { RequestSummaryDto } from '@/lib/approvals/requests';
import { approvalsUrl, type ApprovalScope as Scope } from '@/lib/approvals/search-params';
import { formatRelative, formatUsd } from '@/lib/format';
import { cn } from '@/lib/utils';
import { StatusBadge } from './status-badge';

const SCOPES: ReadonlyArray<{ id: Scope; label: string }> = [
  { id: 'needs-me', label: 'Needs your approval' },
  { id: 'open', label: 'In progress' },
  { id: 'mine', label: 'My requests' },
  { id: 'all', label: 'All' },
];

const EMPTY: Record<Scope, string> = {
  'needs-me': 'Nothing is waiting for your approval.',
  open: 'No request is in progress.',
  mine: 'You have not requested anything yet.',
  all: 'No requests yet.',
};

const helper = createDataTableColumnHelper<RequestSummaryDto>();

/** Time left to approve a pending request; `now` is null until mounted (server and client render alike). */
function timeLeft(request: RequestSummaryDto, now: number | null): string {
  if (request.status !== 'PENDING_APPROVAL' || now === null) return '—';
  return new Date(request.expiresAt).getTime() > now
    ? formatRelative(request.expiresAt, now).replace(/^in /, '')
    : 'expired';
}

function queueColumns(now: number | null): ColumnDef<DataTableFeatures, RequestSummaryDto, unknown>[] {
  return helper.columns([
    helper.display({
      id: 'request',
      header: 'Request',
      meta: { label: 'Request' },
      cell: ({ row }) => (
        <>
          <Link
            className="font-medium underline-offset-4 hover:underline"
            href={`/approvals/${row.original.id}`}
          >
            {row.original.summary}
          </Link>
          <span className="block text-xs text-muted-foreground">{row.original.typeLabel}</span>
        </>
      ),
    }),
    helper.display({
      id: 'requester',
      header: 'Requester',
      meta: { label: 'Requester' },
      cell: ({ row }) => row.original.requesterEmail,
    }),
    helper.display({
      id: 'amount',
      header: 'Amount',
      meta: { label: 'Amount', className: 'text-right' },
      cell: ({ row }) => formatUsd(row.original.amountUsd),
    }),
    helper.display({
      id: 'status',
      header: 'Status',
      meta: { label: 'Status' },
      cell: ({ row }) => <StatusBadge status={row.original.status} />,
    }),
    helper.display({
      id: 'approvals',
      header: 'Approvals',
      meta: { label: 'Approvals' },
      cell: ({ row }) => `${row.original.approvals} / ${row.original.requiredApprovals}`,
    }),
    helper.display({
      id: 'age',
      header: 'Age',
      meta: { label: 'Age' },
      cell: ({ row }) => <RelativeTime iso={row.original.createdAt} />,
    }),
    helper.display({
      id: 'timeLeft',
      header: 'Time left',
      meta: { label: 'Time left' },
      cell: ({ row }) => timeLeft(row.original, now),
    }),
  ]) as ColumnDef<DataTableFeatures, RequestSummaryDto, unknown>[];
}

async function fetchList(scope: Scope): Promise<RequestSummaryDto[]> {
  const res = await fetch(approvalsUrl('/approvals/feed', { scope }), { cache: 'no-store' });
  const body = (await res.json()) as { data?: RequestSummaryDto[]; message?: string };
  if (!res.ok || !body.data) throw new Error(body.message ?? `HTTP ${res.status}`);
  return body.data;
}

export function ApprovalsQueue({ scope, initial }: { scope: Scope; initial: RequestSummaryDto[] }) {
  const { data = initial, error } = useQuery({
    queryKey: ['approvals', 'list', scope],
    queryFn: () => fetchList(scope),
    initialData: initial,
    refetchInterval: 10_000,
  });
  const now = useNow();
  const columns = useMemo(() => queueColumns(now), [now]);
  const table = useDataTable({ data, columns, getRowId: (r) => r.id });
  return (
    <section aria-labelledby="queue-heading" className="grid gap-3">
      <h2 id="queue-heading" className="sr-only">
        Requests
      </h2>
      <nav aria-label="Request lists" className="flex flex-wrap gap-1 border-b">
        {SCOPES.map((s) => (
          <Link
            key={s.id}
            href={approvalsUrl('/approvals', { scope: s.id })}
            aria-current={s.id === scope ? 'page' : undefined}
            className={cn(
              '-mb-px border-b-2 border-transparent px-3 py-2 text-sm hover:text-foreground',
              s.id === scope ? 'border-primary font-medium' : 'text-muted-foreground',
            )}
          >
            {s.label}
          </Link>
        ))}
      </nav>
      {error ? (
        <Alert variant="destructive">
          <AlertDescription>Could not refresh the list: {error.message}</AlertDescription>
        </Alert>
      ) : null}
      {data.length === 0 ? (
        <p className="rounded-md border p-6 text-center text-muted-foreground">{EMPTY[scope]}</p>
      ) : (
        <DataTable table={table} label={SCOPES.find((s) => s.id === scope)?.label ?? 'Requests'} />
      )}
    </section>
  );
}
