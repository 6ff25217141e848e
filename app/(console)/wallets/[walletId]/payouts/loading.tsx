import { Skeleton } from '@/components/ui/skeleton';

export default function Loading() {
  return (
    <div role="status" className="grid gap-4" aria-busy="true" aria-label="Loading the payout form">
      <Skeleton className="h-7 w-40" />
      <Skeleton className="h-24 w-full" />
      <Skeleton className="h-9 w-32" />
    </div>
  );
}
