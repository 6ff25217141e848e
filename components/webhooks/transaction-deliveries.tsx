'use client';
// Webhook deliveries of one transaction (#23), for the transaction drawer: one per event, where it stands
// (a failure later delivered is resolved), every attempt with the receiver's answers, and a resend for
// roles that may. Loaded from GET /api/wallets/[walletId]/transactions/[transactionId]/webhooks, or given
// by a server loader (`loadTransactionDeliveries` in lib/server/webhooks.ts) as `initialData`.
import { useQuery } from '@tanstack/react-query';
import { useLiveRefetchInterval } from '@/components/live/live-status';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format';
import { webhookKeys } from '@/lib/query-keys';
import type { WebhookDeliveryGroup } from '@/lib/validation/webhooks';
import { AttemptHistory } from './attempt-history';
import { DeliveryStateBadge, describeAttempts } from './delivery-status';
import { ResendWebhookButton } from './resend-webhook-button';

export interface TransactionDeliveriesProps {
  walletId: string;
  transactionId: string;
  /** Show the resend control (roles with `webhook.resend`); the server checks again. */
  canResend?: boolean;
  initialData?: WebhookDeliveryGroup[];
}

async function fetchDeliveries(walletId: string, transactionId: string): Promise<WebhookDeliveryGroup[]> {
  const res = await fetch(
    `/api/wallets/${encodeURIComponent(walletId)}/transactions/${encodeURIComponent(transactionId)}/webhooks`,
    { headers: { accept: 'application/json' } },
  );
  const body = (await res.json().catch(() => null)) as {
    data?: WebhookDeliveryGroup[];
    message?: string;
  } | null;
  if (!res.ok) throw new Error(body?.message ?? `Could not load deliveries (HTTP ${res.status})`);
  return body?.data ?? [];
}

export function TransactionDeliveries({
  walletId,
  transactionId,
  canResend = false,
  initialData,
}: TransactionDeliveriesProps) {
  const refetchInterval = useLiveRefetchInterval();
  const query = useQuery({
    queryKey: webhookKeys.transaction(walletId, transactionId),
    queryFn: () => fetchDeliveries(walletId, transactionId),
    initialData,
    refetchInterval,
  });
  // The newest delivery names the event and URL a resend goes to.
  const newest = query.data?.[0];

  return (
    <section aria-labelledby={`deliveries-${transactionId}`} className="grid gap-2">
      <h3 id={`deliveries-${transactionId}`} className="text-sm font-medium">
        Webhook deliveries
      </h3>
      {query.isPending ? (
        <div className="grid gap-2" role="status" aria-busy="true">
          <span className="sr-only">Loading deliveries</span>
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      ) : query.isError ? (
        <Alert variant="destructive">
          <AlertDescription>{query.error.message}</AlertDescription>
        </Alert>
      ) : query.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">No webhook has been sent for this transaction yet.</p>
      ) : (
        <ul className="grid gap-2">
          {query.data.map((delivery) => (
            <li key={delivery.id} className="grid gap-2 rounded-md border p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium">{delivery.event}</span>
                <DeliveryStateBadge state={delivery.state} status={delivery.latest.status} />
              </div>
              <p className="text-muted-foreground">
                {describeAttempts(delivery)}; first sent {formatDateTime(delivery.firstSentAt)}, last attempt{' '}
                {formatDateTime(delivery.lastAttemptAt)}
              </p>
              <details className="group">
                <summary className="cursor-pointer rounded-sm text-sm select-none focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
                  Attempts of {delivery.event}
                </summary>
                <div className="mt-2">
                  <AttemptHistory
                    group={delivery}
                    title={`Attempt history of ${delivery.event}`}
                    headingId={`attempts-${transactionId}-${delivery.event}`}
                  />
                </div>
              </details>
            </li>
          ))}
        </ul>
      )}
      {canResend && newest ? (
        <div>
          <ResendWebhookButton
            walletId={walletId}
            transactionId={transactionId}
            event={newest.event}
            url={newest.latest.url}
          />
        </div>
      ) : null}
    </section>
  );
}
