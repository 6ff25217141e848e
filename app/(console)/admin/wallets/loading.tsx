import { Skeleton } from '@/components/ui/skeleton';

export default function WalletConnectionsLoading() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading wallet connections" className="grid gap-3">
      <Skeleton className="h-8 w-56" />
      <Skeleton className="h-4 w-96" />
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-12 w-full" />
      ))}
    </div>
  );
}
