// One page of a wallet's webhook log (#22), filtered by status and event on the server (see loadWebhookLogPage).
import { withPermission } from '@/lib/server/route';
import { custodyFor } from '@/lib/server/wallets';
import { loadWebhookLogPage, webhookLogQuerySchema } from '@/lib/server/webhooks';

export const dynamic = 'force-dynamic';

export const GET = withPermission(
  'read',
  async ({ params, query }) => {
    const walletId = String(params.walletId ?? '');
    const client = await custodyFor(walletId);
    if (!client)
      return Response.json(
        { statusCode: 404, message: 'This wallet is not connected to the console.' },
        { status: 404 },
      );
    return Response.json(await loadWebhookLogPage(client, walletId, query), {
      headers: { 'cache-control': 'no-store' },
    });
  },
  webhookLogQuerySchema,
);
