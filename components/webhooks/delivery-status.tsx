import { Badge } from '@/components/ui/badge';
import type { WebhookLog } from '@/lib/custody/schemas';

export function DeliveryStatusBadge({ status }: { status: string }) {
  if (status === 'success') return <Badge variant="success">Delivered</Badge>;
  if (status === 'failed') return <Badge variant="destructive">Failed</Badge>;
  return <Badge variant="outline">{status}</Badge>;
}

/** The receiver's answer in one line: the acknowledgement text, or the HTTP status and text of a failure. */
export function describeResponse(response: WebhookLog['response'] | null | undefined): string {
  if (response === null || response === undefined) return '—';
  if (typeof response === 'string') return response || '(empty response)';
  const text = response.text || '(no text)';
  return response.status === 0 ? `No HTTP answer: ${text}` : `HTTP ${response.status}: ${text}`;
}
