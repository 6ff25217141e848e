// One transaction, for a drawer opened from a link whose row is not on the loaded page.
import { z } from 'zod';
import { walletNotConnected, withPermission } from '@/lib/server/route';
import { getTransaction, withTransactionSource } from '@/lib/server/transactions';
import { custodyFor } from '@/lib/server/wallets';

export const dynamic = 'force-dynamic';

const transactionId = z.uuid();

export const GET = withPermission('read', async ({ params }) => {
  const walletId = String(params.walletId ?? '');
  const id = transactionId.safeParse(params.transactionId);
  if (!id.success)
    return Response.json({ statusCode: 422, message: 'transactionId: must be a UUID' }, { status: 422 });
  const client = await custodyFor(walletId);
  if (!client) return walletNotConnected();
  const data = await withTransactionSource(
    client,
    walletId,
    (source) => getTransaction(client, walletId, id.data, source),
    'transaction',
  );
  return Response.json({ data }, { headers: { 'cache-control': 'no-store' } });
});
