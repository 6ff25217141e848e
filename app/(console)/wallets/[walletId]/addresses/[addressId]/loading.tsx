import { DataTableSkeleton } from '@/components/data-table/data-table-skeleton';
import { Skeleton } from '@/components/ui/skeleton';

export default function AddressLoading() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading address" className="grid gap-6">
      <Skeleton className="h-20 w-full max-w-xl" />
      <div className="grid gap-6 lg:grid-cols-2">
        <Skeleton className="h-48 rounded-lg" />
        <Skeleton className="h-48 rounded-lg" />
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <Skeleton className="h-40 rounded-lg" />
        <div className="lg:col-span-2">
          <DataTableSkeleton columnCount={7} rowCount={5} withToolbar={false} />
        </div>
      </div>
    </div>
  );
}
