import { Badge } from '@/components/ui/badge';
import type { Aml } from '@/lib/custody/schemas';

const CLEAR = new Set(['success', 'passed', 'clear', 'approved']);

/** AML screening result of an address or transaction; unknown statuses are shown as they come. */
export function AmlBadge({ aml }: { aml: Partial<Aml> | null | undefined }) {
  if (!aml?.status) return <Badge variant="secondary">AML: not screened</Badge>;
  const clear = CLEAR.has(aml.status.toLowerCase());
  return (
    <Badge
      variant={clear ? 'success' : 'warning'}
      title={[aml.provider, aml.message].filter(Boolean).join(': ')}
    >
      AML: {aml.status}
    </Badge>
  );
}
