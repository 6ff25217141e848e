'use client';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
// Detail of one delivery: what was sent (payload), where, how often, and what the receiver answered.
import type { WebhookLog } from '@/lib/custody/schemas';
import { formatDateTime } from '@/lib/format';
import { DeliveryStatusBadge, describeResponse } from './delivery-status';
import { JsonTree } from './json-tree';
import { ResendWebhookButton } from './resend-webhook-button';
import { RetryTransactionButton } from './retry-transaction-button';

export interface WebhookDeliveryDialogProps {
  walletId: string;
  delivery: WebhookLog | null;
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
  return (
    <Dialog open={delivery !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] max-w-2xl overflow-y-auto">
        {delivery ? (
          <>
            <DialogHeader>
              <DialogTitle>Delivery of {delivery.event}</DialogTitle>
              <DialogDescription>
                Transaction {delivery.reference} · {delivery.payload.type} · {delivery.payload.status}
              </DialogDescription>
            </DialogHeader>
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
              <dt className="text-muted-foreground">Status</dt>
              <dd>
                <DeliveryStatusBadge status={delivery.status} />
              </dd>
              <dt className="text-muted-foreground">Attempts</dt>
              <dd>{delivery.attempts}</dd>
              <dt className="text-muted-foreground">URL</dt>
              <dd className="break-all font-mono text-xs">{delivery.url}</dd>
              <dt className="text-muted-foreground">Response</dt>
              <dd className="break-words">{describeResponse(delivery.response)}</dd>
              <dt className="text-muted-foreground">First sent</dt>
              <dd>{formatDateTime(delivery.createdAt)}</dd>
              <dt className="text-muted-foreground">Last attempt</dt>
              <dd>{formatDateTime(delivery.updatedAt)}</dd>
              <dt className="text-muted-foreground">Transaction</dt>
              <dd className="break-all font-mono text-xs">{delivery.payload.id}</dd>
            </dl>
            {canResend || canRetry ? (
              <div className="flex flex-wrap gap-2">
                {canResend ? (
                  <ResendWebhookButton
                    walletId={walletId}
                    transactionId={delivery.payload.id}
                    event={delivery.event}
                    url={delivery.url}
                  />
                ) : null}
                {canRetry ? (
                  <RetryTransactionButton walletId={walletId} transaction={delivery.payload} />
                ) : null}
              </div>
            ) : null}
            <section aria-label="Payload" className="rounded-md border bg-muted/30 p-3">
              <h3 className="mb-2 text-sm font-medium">Payload</h3>
              <JsonTree value={delivery.payload} label="data" />
            </section>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
