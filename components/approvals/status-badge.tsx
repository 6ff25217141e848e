import { Badge } from '@/components/ui/badge';
import { statusLabel } from '@/lib/approvals/statuses';

const VARIANTS: Record<string, 'default' | 'secondary' | 'outline' | 'success' | 'warning' | 'destructive'> =
  {
    PENDING_APPROVAL: 'warning',
    APPROVED: 'secondary',
    SUBMITTING: 'secondary',
    SUBMITTED: 'secondary',
    SUCCESS: 'success',
    FAILED: 'destructive',
    REJECTED: 'destructive',
    EXPIRED: 'outline',
    CANCELLED: 'outline',
    SUBMIT_FAILED: 'destructive',
    OUTCOME_UNKNOWN: 'warning',
    DUPLICATE: 'destructive',
    PENDING: 'secondary',
  };

export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return (
    <Badge variant={VARIANTS[status] ?? 'outline'} data-status={status}>
      {label ?? statusLabel(status)}
    </Badge>
  );
}
