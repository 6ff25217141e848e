'use client';
// Detail of one delivery (every log entry of a transaction and event): where it stands, what was sent and
// where, every attempt with the receiver's answers, and the resend and retry controls.
import { useId } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { formatDateTime } from '@/lib/format';
import type { WebhookDeliveryGroup } from '@/lib/validation/webhooks';
import { AttemptHistory } from './attempt-history';
import { DeliveryStateBadge, describeAttempts } from './delivery-status';
import { JsonTree } from './json-tree';
import { ResendWebhookButton } from './resend-webhook-button';
import { RetryTransactionButton } from './retry-transaction-button';

export interface WebhookDeliveryDialogProps {
  walletId: string;
  delivery: WebhookDeliveryGroup | null;
  onOpenChange: (open: boolean) => void;
  canResend: boolean;
  canRetry: boolean;
}

export function WebhookDeliveryDialog({
  walletId,
  delivery,
  onOpenChange,
  canResend,
  canRetry,
}: WebhookDeliveryDialogProps) {
  const historyId = useId();
  const payload = delivery?.latest.payload;
  return (
    <Dialog open={delivery !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] max-w-2xl overflow-y-auto">
        {delivery && payload ? (
          <>
            <DialogHeader>
              <DialogTitle>Delivery of {delivery.event}</DialogTitle>
              <DialogDescription>
                Transaction {delivery.transactionId} · {payload.type} · {payload.status}
              </DialogDescription>
            </DialogHeader>
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
              <dt className="text-muted-foreground">Status</dt>
              <dd>
                <DeliveryStateBadge state={delivery.state} status={delivery.latest.status} />
              </dd>
              <dt className="text-muted-foreground">Attempts</dt>
              <dd>{describeAttempts(delivery)}</dd>
              <dt className="text-muted-foreground">URL</dt>
              <dd className="break-all font-mono text-xs">{delivery.latest.url}</dd>
              <dt className="text-muted-foreground">First sent</dt>
              <dd>{formatDateTime(delivery.firstSentAt)}</dd>
              <dt className="text-muted-foreground">Last attempt</dt>
              <dd>{formatDateTime(delivery.lastAttemptAt)}</dd>
              <dt className="text-muted-foreground">Transaction</dt>
              <dd className="break-all font-mono text-xs">{delivery.transactionId}</dd>
            </dl>
            {canResend || canRetry ? (
              <div className="flex flex-wrap gap-2">
                {canResend ? (
                  <ResendWebhookButton
                    walletId={walletId}
                    transactionId={delivery.transactionId}
                    event={delivery.event}
                    url={delivery.latest.url}
                  />
                ) : null}
                {canRetry ? <RetryTransactionButton walletId={walletId} transaction={payload} /> : null}
              </div>
            ) : null}
            <AttemptHistory group={delivery} headingId={historyId} />
            <section aria-label="Payload" className="rounded-md border bg-muted/30 p-3">
              <h3 className="mb-2 text-sm font-medium">Payload</h3>
              <JsonTree value={payload} label="data" />
            </section>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
