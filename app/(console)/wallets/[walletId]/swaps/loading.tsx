import { Skeleton } from '@/components/ui/skeleton';

export default function SwapsLoading() {
  return (
    <div className="grid max-w-2xl gap-4" role="status" aria-busy="true" aria-label="Loading the swap form">
      <Skeleton className="h-7 w-40" />
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-10 w-full" />
    </div>
  );
}
