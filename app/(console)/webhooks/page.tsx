import type { Metadata } from 'next';
import { Suspense } from 'react';
import { PageHeader } from '@/components/shell/page-header';
import { Badge } from '@/components/ui/badge';
import { Link } from '@/components/ui/link';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { describeFailure } from '@/lib/server/errors';
import { requirePage } from '@/lib/server/page-guard';
import { custodyFor, walletConnectionsOfRender } from '@/lib/server/wallets';
import { groupDeliveries } from '@/lib/server/webhook-groups';
import { runPool } from '@/lib/server/webhooks';
import { parseWebhookLogQuery, webhookLogSearch } from '@/lib/validation/webhooks';

export const metadata: Metadata = { title: 'Webhooks' };

/**
 * Failures are counted among each wallet's newest log entries: one upstream page, so the index stays fast.
 * A resend is logged as a newer entry, so a failure read here also brings the send that resolved it.
 */
const RECENT = 100;

/** The log's query for the deliveries that still need someone (`status=failed`, the rest at defaults). */
const FAILED_SEARCH = webhookLogSearch({ ...parseWebhookLogQuery({}), status: 'failed' });

export default async function WebhooksPage() {
  const actor = await requirePage('read');
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Delivery logs of the custody service's webhooks, per connected wallet."
      />
      <Suspense fallback={<Skeleton className="h-40 w-full" />}>
        <WalletDeliverySummary requestId={actor.requestId} />
      </Suspense>
    </>
  );
}

async function WalletDeliverySummary({ requestId }: { requestId: string | null }) {
  const wallets = await walletConnectionsOfRender();
  if (wallets.length === 0) {
    return (
      <p className="rounded-md border p-6 text-center text-muted-foreground">No wallets connected yet.</p>
    );
  }
  const summaries = await runPool(wallets, 4, async (wallet) => {
    const client = await custodyFor(wallet.id);
    if (!client) throw new Error('not connected');
    const page = await client.webhooks.list({ walletId: wallet.id, page: 1, limit: RECENT });
    return {
      failed: groupDeliveries(page.data).filter((d) => d.needsAttention).length,
      read: page.data.length,
      total: page.meta.totalItems,
    };
  });
  return (
    <Table aria-label="Webhook deliveries per wallet">
      <TableHeader>
        <TableRow>
          <TableHead scope="col">Wallet</TableHead>
          <TableHead scope="col">Network</TableHead>
          <TableHead scope="col">Log entries</TableHead>
          <TableHead scope="col">Needing attention among the latest {RECENT}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {wallets.map((wallet, i) => {
          const summary = summaries[i];
          return (
            <TableRow key={wallet.id}>
              <TableCell>
                <Link
                  href={`/wallets/${wallet.id}/webhooks`}
                  className="font-medium underline-offset-4 hover:underline"
                >
                  {wallet.name}
                </Link>
              </TableCell>
              <TableCell>
                {wallet.network === 'mainnet' ? (
                  <Badge variant="destructive">Mainnet</Badge>
                ) : (
                  <Badge variant="outline">Testnet</Badge>
                )}
              </TableCell>
              {summary?.ok ? (
                <>
                  <TableCell>{summary.value.total.toLocaleString('en-US')}</TableCell>
                  <TableCell>
                    {summary.value.failed > 0 ? (
                      <Link
                        href={`/wallets/${wallet.id}/webhooks?${FAILED_SEARCH}`}
                        className="text-destructive underline-offset-4 hover:underline"
                      >
                        {summary.value.failed} failed
                      </Link>
                    ) : (
                      <span className="text-muted-foreground">None</span>
                    )}
                  </TableCell>
                </>
              ) : (
                <TableCell colSpan={2} className="text-destructive">
                  {
                    describeFailure(
                      summary && !summary.ok ? summary.error : null,
                      requestId,
                      `webhook summary ${wallet.id}`,
                    ).message
                  }
                </TableCell>
              )}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
