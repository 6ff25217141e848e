import { Skeleton } from '@/components/ui/skeleton';

export default function AddressesLoading() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading addresses" className="grid gap-3">
      <Skeleton className="h-9 w-full max-w-xl" />
      {Array.from({ length: 8 }, (_, i) => (
        <Skeleton key={i} className="h-10 w-full" />
      ))}
    </div>
  );
}
