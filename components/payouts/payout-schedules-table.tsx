'use client';
// A wallet's payout schedules as a kit table: name and what each run pays, the cadence in words, the next
// run, the last run with its request, the status, each schedule's runs (request or why none was created), and
// pause, resume or end for the people who may ask for schedules.
import type { ColumnDef } from '@tanstack/react-table';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { StatusBadge } from '@/components/approvals/status-badge';
import { DataTable } from '@/components/data-table/data-table';
import { DataTableEmpty } from '@/components/data-table/data-table-empty';
import { createDataTableColumnHelper, type DataTableFeatures } from '@/components/data-table/features';
import { useDataTable } from '@/components/data-table/use-data-table';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Link } from '@/components/ui/link';
import { toast } from '@/components/ui/toast';
import {
  endPayoutScheduleAction,
  pausePayoutScheduleAction,
  resumePayoutScheduleAction,
} from '@/lib/actions/payout-schedules';
import { type PayoutScheduleView, SCHEDULE_STATUS_LABELS } from '@/lib/approvals/payout-schedules';
import { formatAmount, formatDateTime } from '@/lib/format';

type Run = PayoutScheduleView['runs'][number];

function RunOutcome({ run }: { run: Run }) {
  if (run.requestId)
    return (
      <span className="flex flex-wrap items-center gap-2">
        <Link href={`/approvals/${run.requestId}`} className="underline underline-offset-2">
          Request of {formatDateTime(run.dueAt)}
        </Link>
        {run.requestStatus ? <StatusBadge status={run.requestStatus} /> : null}
      </span>
    );
  return (
    <span className="block wrap-anywhere">
      {formatDateTime(run.dueAt)}: <span className="text-destructive">{run.error ?? 'No request.'}</span>
    </span>
  );
}

function Runs({ schedule }: { schedule: PayoutScheduleView }) {
  if (schedule.runs.length === 0) return <span className="text-muted-foreground">No run yet</span>;
  return (
    <details>
      <summary className="cursor-pointer">
        {schedule.runs.length} {schedule.runs.length === 1 ? 'run' : 'runs'}
      </summary>
      <ul aria-label={`Runs of ${schedule.name}`} className="mt-2 grid gap-1 text-xs">
        {schedule.runs.map((run) => (
          <li key={run.id}>
            <RunOutcome run={run} />
          </li>
        ))}
      </ul>
    </details>
  );
}

function ScheduleActions({ schedule }: { schedule: PayoutScheduleView }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const change = (action: typeof pausePayoutScheduleAction) =>
    new Promise<boolean>((resolve) =>
      startTransition(async () => {
        setError(null);
        const result = await action({ scheduleId: schedule.id });
        if (!result.ok) {
          setError(result.error);
          toast.error(result.error);
          return resolve(false);
        }
        toast.success(result.data.message);
        router.refresh();
        resolve(true);
      }),
    );
  if (schedule.status === 'ended') return null;
  return (
    <div className="flex flex-wrap gap-2">
      {schedule.status === 'active' ? (
        <Button
          size="sm"
          variant="outline"
          disabled={pending}
          onClick={() => void change(pausePayoutScheduleAction)}
        >
          Pause<span className="sr-only"> {schedule.name}</span>
        </Button>
      ) : (
        <Button
          size="sm"
          variant="outline"
          disabled={pending}
          onClick={() => void change(resumePayoutScheduleAction)}
        >
          Resume<span className="sr-only"> {schedule.name}</span>
        </Button>
      )}
      <ConfirmDialog
        trigger={
          <Button size="sm" variant="outline" disabled={pending}>
            End<span className="sr-only"> {schedule.name}</span>
          </Button>
        }
        title={`End “${schedule.name}”?`}
        description="No run is created after this. Requests already created stay as they are. An ended schedule cannot be resumed: ask for a new one instead."
        confirmLabel="End schedule"
        destructive
        error={error}
        onConfirm={() => change(endPayoutScheduleAction)}
      />
    </div>
  );
}

const column = createDataTableColumnHelper<PayoutScheduleView>();

function columnsFor(canChange: boolean) {
  return column.columns([
    column.display({
      id: 'name',
      header: 'Schedule',
      meta: { label: 'Schedule', className: 'min-w-40' },
      cell: ({ row }) => (
        <>
          <span className="block font-medium wrap-anywhere">{row.original.name}</span>
          <span className="block text-xs text-muted-foreground">
            {row.original.payments} {row.original.payments === 1 ? 'payment' : 'payments'}:{' '}
            {row.original.totals.map((t) => `${formatAmount(t.amount)} ${t.symbol}`).join(' + ')}
          </span>
          {row.original.approvedRequestId ? (
            <Link
              href={`/approvals/${row.original.approvedRequestId}`}
              className="text-xs underline underline-offset-2"
            >
              Approved request<span className="sr-only"> of {row.original.name}</span>
            </Link>
          ) : null}
        </>
      ),
    }),
    column.display({
      id: 'cadence',
      header: 'Runs',
      meta: { label: 'Runs', className: 'min-w-36' },
      cell: ({ row }) => row.original.cadence,
    }),
    column.display({
      id: 'next',
      header: 'Next run',
      meta: { label: 'Next run', className: 'min-w-32' },
      cell: ({ row }) =>
        row.original.status === 'active' && row.original.nextRunAt ? (
          formatDateTime(row.original.nextRunAt)
        ) : (
          <span className="text-muted-foreground">—</span>
        ),
    }),
    column.display({
      id: 'last',
      header: 'Last run',
      meta: { label: 'Last run', className: 'min-w-40 text-xs' },
      cell: ({ row }) => {
        const [last] = row.original.runs;
        return last ? <RunOutcome run={last} /> : <span className="text-muted-foreground">—</span>;
      },
    }),
    column.display({
      id: 'status',
      header: 'Status',
      meta: { label: 'Status' },
      cell: ({ row }) => (
        <Badge variant={row.original.status === 'active' ? 'success' : 'outline'}>
          {SCHEDULE_STATUS_LABELS[row.original.status]}
        </Badge>
      ),
    }),
    column.display({
      id: 'runs',
      header: 'All runs',
      meta: { label: 'All runs', className: 'min-w-40 text-sm' },
      cell: ({ row }) => <Runs schedule={row.original} />,
    }),
    ...(canChange
      ? [
          column.display({
            id: 'actions',
            header: 'Actions',
            meta: { label: 'Actions' },
            cell: ({ row }) => <ScheduleActions schedule={row.original} />,
          }),
        ]
      : []),
  ]) as ColumnDef<DataTableFeatures, PayoutScheduleView, unknown>[];
}

export interface PayoutSchedulesTableProps {
  schedules: PayoutScheduleView[];
  /** Whether this person may pause, resume and end schedules. */
  canChange: boolean;
}

export function PayoutSchedulesTable({ schedules, canChange }: PayoutSchedulesTableProps) {
  const [columns] = useState(() => columnsFor(canChange));
  const table = useDataTable({ data: schedules, columns, getRowId: (s) => s.id });
  return (
    <DataTable
      table={table}
      label="Payout schedules"
      className="min-w-0"
      empty={
        <DataTableEmpty
          title="No payout schedules yet"
          description="A schedule pays the same recipients on a cadence; each run is a payout request another person approves."
        />
      }
    />
  );
}
