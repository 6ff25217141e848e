import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { ServiceError } from '@/components/wallets/service-error';
import { WebhookLogSkeleton } from '@/components/webhooks/webhook-log-skeleton';
import { WebhookLogTable } from '@/components/webhooks/webhook-log-table';
import { describeFailure } from '@/lib/server/errors';
import { requirePage } from '@/lib/server/page-guard';
import { can } from '@/lib/server/permissions';
import { custodyFor, findWalletConnection } from '@/lib/server/wallets';
import { loadWebhookLogPage } from '@/lib/server/webhooks';
import { parseWebhookLogQuery, type WebhookLogQuery } from '@/lib/validation/webhooks';

export const metadata: Metadata = { title: 'Webhook deliveries' };

interface PageProps {
  params: Promise<{ walletId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function WalletWebhooksPage({ params, searchParams }: PageProps) {
  const actor = await requirePage('read');
  const { walletId } = await params;
  const wallet = await findWalletConnection(walletId);
  if (!wallet) notFound();
  const query = parseWebhookLogQuery(await searchParams);
  return (
    <section aria-labelledby="webhook-log-heading" className="grid gap-4">
      <div>
        <h2 id="webhook-log-heading" className="text-xl font-semibold tracking-tight">
          Webhook deliveries
        </h2>
        <p className="text-sm text-muted-foreground">
          Every webhook the custody service sent for {wallet.name}, one row per transaction and event with all
          its sends and resends. A failure later delivered is resolved; Failed lists what still needs someone.
          Open a row for every attempt and the payload.
        </p>
      </div>
      <Suspense fallback={<WebhookLogSkeleton />}>
        <WebhookLog
          walletId={walletId}
          query={query}
          canResend={can(actor.role, 'webhook.resend')}
          canRetry={can(actor.role, 'transaction.retry')}
          requestId={actor.requestId}
        />
      </Suspense>
    </section>
  );
}

async function WebhookLog({
  walletId,
  query,
  canResend,
  canRetry,
  requestId,
}: {
  walletId: string;
  query: WebhookLogQuery;
  canResend: boolean;
  canRetry: boolean;
  requestId: string | null;
}) {
  const client = await custodyFor(walletId);
  if (!client) notFound();
  let page: Awaited<ReturnType<typeof loadWebhookLogPage>>;
  try {
    page = await loadWebhookLogPage(client, walletId, query);
  } catch (error) {
    const { message } = describeFailure(error, requestId, `webhook log of ${walletId}`);
    return <ServiceError title="The webhook log could not be loaded" message={message} />;
  }
  return (
    <WebhookLogTable
      walletId={walletId}
      initialPage={page}
      initialQuery={query}
      canResend={canResend}
      canRetry={canRetry}
    />
  );
}
