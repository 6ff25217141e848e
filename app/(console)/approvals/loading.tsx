import { Skeleton } from '@/components/ui/skeleton';

export default function Loading() {
  return (
    <div role="status" className="grid gap-4" aria-busy="true" aria-label="Loading approvals">
      <Skeleton className="h-8 w-48" />
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}
