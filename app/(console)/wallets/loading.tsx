import { Skeleton } from '@/components/ui/skeleton';

export default function WalletsLoading() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading wallets">
      <Skeleton className="mb-2 h-8 w-40" />
      <Skeleton className="mb-6 h-4 w-72" />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-56 rounded-lg" />
        ))}
      </div>
    </div>
  );
}
