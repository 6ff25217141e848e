'use client';
import { useQuery } from '@tanstack/react-query';

/** The live "needs your approval" count next to Approvals in the navigation. */
export function ApprovalsCount({ initial }: { initial: number }) {
  const { data = initial } = useQuery({
    queryKey: ['approvals', 'count'],
    queryFn: async () => {
      const res = await fetch('/approvals/count', { cache: 'no-store' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return ((await res.json()) as { count: number }).count;
    },
    initialData: initial,
    // Live events refresh it sooner; another person's decision shows within seconds.
    refetchInterval: 5_000,
  });
  if (!data) return null;
  return (
    <span className="ml-auto rounded-full bg-primary px-2 py-0.5 text-xs font-medium text-primary-foreground">
      {data}
      <span className="sr-only"> {data === 1 ? 'request needs' : 'requests need'} your approval</span>
    </span>
  );
}
