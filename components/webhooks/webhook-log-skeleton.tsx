import { Skeleton } from '@/components/ui/skeleton';

export function WebhookLogSkeleton({ rows = 8 }: { rows?: number }) {
  return (
    <div className="grid gap-3" role="status" aria-busy="true">
      <span className="sr-only">Loading webhook deliveries</span>
      <div className="flex gap-3">
        <Skeleton className="h-9 w-40" />
        <Skeleton className="h-9 w-56" />
      </div>
      <div className="grid gap-2 rounded-md border p-3">
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} className="h-8 w-full" />
        ))}
      </div>
    </div>
  );
}
