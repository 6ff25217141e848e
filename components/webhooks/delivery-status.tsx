import { Badge } from '@/components/ui/badge';
import type { WebhookLog } from '@/lib/custody/schemas';
import type { DeliveryAttempt, DeliveryState, WebhookDeliveryGroup } from '@/lib/validation/webhooks';

/** One log entry's own status. */
export function DeliveryStatusBadge({ status }: { status: string }) {
  if (status === 'success') return <Badge variant="success">Delivered</Badge>;
  if (status === 'failed') return <Badge variant="destructive">Failed</Badge>;
  return <Badge variant="outline">{status}</Badge>;
}

/** Where a delivery stands as a whole: a failure later delivered reads Delivered, marked resolved. */
export function DeliveryStateBadge({ state, status }: { state: DeliveryState; status?: string }) {
  if (state === 'failed') return <Badge variant="destructive">Failed</Badge>;
  if (state === 'pending') return <Badge variant="outline">{status || 'Sending'}</Badge>;
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
      <Badge variant="success">Delivered</Badge>
      {state === 'resolved' ? <Badge variant="outline">Resolved</Badge> : null}
    </span>
  );
}

/** The state in words, for row labels and screen readers. */
export function describeState(group: Pick<WebhookDeliveryGroup, 'state'>): string {
  if (group.state === 'failed') return 'failed';
  if (group.state === 'pending') return 'being sent';
  if (group.state === 'resolved') return 'delivered after an earlier failure';
  return 'delivered';
}

/** The receiver's answer in one line: the acknowledgement text, or the HTTP status and text of a failure. */
export function describeResponse(response: WebhookLog['response'] | null | undefined): string {
  if (response === null || response === undefined) return '—';
  if (typeof response === 'string') return response || '(empty response)';
  const text = response.text || '(no text)';
  return response.status === 0 ? `No HTTP answer: ${text}` : `HTTP ${response.status}: ${text}`;
}

export function describeOutcome(outcome: DeliveryAttempt['outcome']): string {
  if (outcome === 'delivered') return 'Delivered';
  if (outcome === 'failed') return 'Failed';
  return 'Outcome not known yet';
}

/** "4 attempts" or "5 attempts in 2 sends". */
export function describeAttempts(group: Pick<WebhookDeliveryGroup, 'attempts' | 'entries'>): string {
  const n = group.attempts.length;
  const tries = `${n} ${n === 1 ? 'attempt' : 'attempts'}`;
  return group.entries.length > 1 ? `${tries} in ${group.entries.length} sends` : tries;
}
