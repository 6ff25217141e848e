import { withPermission } from '@/lib/server/route';
import { loadAddressBalances } from '@/lib/server/wallet-views';

export const dynamic = 'force-dynamic';

/** A child address's balances (or `available: false`), read by the client under walletKeys.addressBalances. */
export const GET = withPermission('read', async ({ params, actor }) => {
  const walletId = String(params.walletId ?? '');
  const addressId = String(params.addressId ?? '');
  const result = await loadAddressBalances(walletId, addressId, actor.requestId);
  if (!result.ok) {
    return Response.json({ statusCode: result.status, message: result.error }, { status: result.status });
  }
  return Response.json(result.data, { headers: { 'cache-control': 'no-store' } });
});
