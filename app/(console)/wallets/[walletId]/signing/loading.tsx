import { Skeleton } from '@/components/ui/skeleton';

export default function SigningLoading() {
  return (
    <div
      className="grid max-w-2xl gap-4"
      role="status"
      aria-busy="true"
      aria-label="Loading the signing form"
    >
      <Skeleton className="h-7 w-40" />
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-10 w-full" />
    </div>
  );
}
