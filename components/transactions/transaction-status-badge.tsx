import { Badge } from '@/components/ui/badge';

const VARIANT = { SUCCESS: 'success', FAILED: 'destructive', PENDING: 'warning' } as const;

/** Status of a transaction; an unknown upstream status is shown as it comes. */
export function TransactionStatusBadge({ status }: { status: string }) {
  const variant = VARIANT[status as keyof typeof VARIANT] ?? 'secondary';
  return <Badge variant={variant}>{status}</Badge>;
}
