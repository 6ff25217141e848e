import { withPermission } from '@/lib/server/route';
import { loadAddresses } from '@/lib/server/wallet-views';
import { addressFiltersSchema } from '@/lib/validation/wallets';

/** One page of the wallet's addresses (redacted), read by the client under ['addresses', walletId, filters]. */
export const GET = withPermission(
  'read',
  async ({ params, actor, query }) => {
    const walletId = String(params.walletId ?? '');
    const result = await loadAddresses(walletId, query, actor.requestId);
    if (!result.ok) {
      return Response.json({ statusCode: result.status, message: result.error }, { status: result.status });
    }
    return Response.json(result.data, { headers: { 'cache-control': 'no-store' } });
  },
  addressFiltersSchema,
);
