// One page of a wallet's webhook deliveries (#22 read as deliveries per transaction and event), filtered by
// status and event on the server (see loadWebhookLogPage). The query uses the page's own URL parsers.
import { walletNotConnected, withPermission } from '@/lib/server/route';
import { custodyFor } from '@/lib/server/wallets';
import { loadWebhookLogPage } from '@/lib/server/webhooks';
import { parseWebhookLogQuery } from '@/lib/validation/webhooks';

export const dynamic = 'force-dynamic';

export const GET = withPermission('read', async ({ params, request }) => {
  const walletId = String(params.walletId ?? '');
  const client = await custodyFor(walletId);
  if (!client) return walletNotConnected();
  const query = parseWebhookLogQuery(new URL(request.url).searchParams);
  return Response.json(await loadWebhookLogPage(client, walletId, query), {
    headers: { 'cache-control': 'no-store' },
  });
});
