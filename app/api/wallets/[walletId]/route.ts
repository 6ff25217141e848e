import { withPermission } from '@/lib/server/route';
import { loadWalletView } from '@/lib/server/wallet-views';

/** The wallet overview's data (redacted wallet and balances), read by the client under ['wallet', walletId]. */
export const GET = withPermission('read', async ({ params, actor }) => {
  const walletId = String(params.walletId ?? '');
  const result = await loadWalletView(walletId, actor.requestId);
  if (!result.ok) {
    return Response.json({ statusCode: result.status, message: result.error }, { status: result.status });
  }
  return Response.json(result.data, { headers: { 'cache-control': 'no-store' } });
});
