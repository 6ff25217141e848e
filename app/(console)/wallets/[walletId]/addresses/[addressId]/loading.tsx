import { Skeleton } from '@/components/ui/skeleton';

export default function AddressLoading() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading address" className="grid gap-6">
      <Skeleton className="h-20 w-full max-w-xl" />
      <div className="grid gap-6 lg:grid-cols-2">
        <Skeleton className="h-48 rounded-lg" />
        <Skeleton className="h-48 rounded-lg" />
      </div>
    </div>
  );
}
