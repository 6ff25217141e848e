// Webhook deliveries of one transaction (#23), one per event with every entry and try, for the transaction
// drawer.
import { walletNotConnected, withPermission } from '@/lib/server/route';
import { custodyFor } from '@/lib/server/wallets';
import { loadTransactionDeliveries } from '@/lib/server/webhooks';

export const dynamic = 'force-dynamic';

export const GET = withPermission('read', async ({ params }) => {
  const walletId = String(params.walletId ?? '');
  const transactionId = String(params.transactionId ?? '');
  const client = await custodyFor(walletId);
  if (!client) return walletNotConnected();
  const data = await loadTransactionDeliveries(client, walletId, transactionId);
  return Response.json({ data }, { headers: { 'cache-control': 'no-store' } });
});
