import { Skeleton } from '@/components/ui/skeleton';

/** Placeholder while the first page loads: same outline as the table, so nothing jumps. */
export function DataTableSkeleton({
  columnCount,
  rowCount = 10,
  withToolbar = true,
  label = 'Loading table',
}: {
  columnCount: number;
  rowCount?: number;
  withToolbar?: boolean;
  label?: string;
}) {
  const columns = Array.from({ length: columnCount }, (_, i) => i);
  return (
    <div role="status" aria-label={label} className="grid gap-3">
      {withToolbar ? (
        <div className="flex flex-wrap items-end gap-3">
          <Skeleton className="h-8 w-40" />
          <Skeleton className="h-8 w-40" />
          <Skeleton className="h-8 w-72" />
          <Skeleton className="ml-auto h-8 w-24" />
        </div>
      ) : null}
      <div className="rounded-md border">
        <div className="flex gap-4 border-b px-3 py-3">
          {columns.map((c) => (
            <Skeleton key={c} className="h-4 flex-1" />
          ))}
        </div>
        {Array.from({ length: rowCount }, (_, r) => (
          <div key={r} className="flex gap-4 border-b px-3 py-3 last:border-0">
            {columns.map((c) => (
              <Skeleton key={c} className="h-4 flex-1" />
            ))}
          </div>
        ))}
      </div>
      <span className="sr-only">Loading…</span>
    </div>
  );
}
