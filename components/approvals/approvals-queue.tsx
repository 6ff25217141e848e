'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { RelativeTime, useNow } from '@/components/ui/relative-time';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
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

async function fetchList(scope: Scope): Promise<RequestSummaryDto[]> {
  const res = await fetch(`/approvals/feed?scope=${scope}`, { cache: 'no-store' });
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
        <Table aria-label={SCOPES.find((s) => s.id === scope)?.label}>
          <TableHeader>
            <TableRow>
              <TableHead>Request</TableHead>
              <TableHead>Requester</TableHead>
              <TableHead className="text-right">Amount</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Approvals</TableHead>
              <TableHead>Age</TableHead>
              <TableHead>Time left</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {data.map((r) => (
              <TableRow key={r.id}>
                <TableCell>
                  <Link
                    className="font-medium underline-offset-4 hover:underline"
                    href={`/approvals/${r.id}`}
                  >
                    {r.summary}
                  </Link>
                  <span className="block text-xs text-muted-foreground">{r.typeLabel}</span>
                </TableCell>
                <TableCell>{r.requesterEmail}</TableCell>
                <TableCell className="text-right">{formatUsd(r.amountUsd)}</TableCell>
                <TableCell>
                  <StatusBadge status={r.status} />
                </TableCell>
                <TableCell>
                  {r.approvals} / {r.requiredApprovals}
                </TableCell>
                <TableCell>
                  <RelativeTime iso={r.createdAt} />
                </TableCell>
                <TableCell>
                  {r.status !== 'PENDING_APPROVAL' || now === null
                    ? '—'
                    : new Date(r.expiresAt).getTime() > now
                      ? formatRelative(r.expiresAt, now).replace(/^in /, '')
                      : 'expired'}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
