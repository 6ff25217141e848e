import { Skeleton } from '@/components/ui/skeleton';

export default function ContractsLoading() {
  return (
    <div className="grid gap-4" aria-busy="true">
      <Skeleton className="h-8 w-64" />
      <Skeleton className="h-48 w-full" />
      <Skeleton className="h-32 w-full" />
    </div>
  );
}
