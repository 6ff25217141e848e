import { z } from 'zod';
import {
  ADDRESS_TRANSACTION_ORDERS,
  ADDRESS_TRANSACTION_PAGE_SIZES,
} from '@/components/wallets/address-search-params';
import { withPermission } from '@/lib/server/route';
import { loadAddressTransactions } from '@/lib/server/wallet-views';

export const dynamic = 'force-dynamic';

const querySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce
    .number()
    .int()
    .refine((n) => (ADDRESS_TRANSACTION_PAGE_SIZES as readonly number[]).includes(n), {
      message: `must be one of ${ADDRESS_TRANSACTION_PAGE_SIZES.join(', ')}`,
    })
    .default(25),
  order: z.enum(ADDRESS_TRANSACTION_ORDERS).default('DESC'),
  id: z.string().trim().min(1).max(100).optional(),
});

/** One page of a child address's transactions (#3), read by the client under transactionKeys.address. */
export const GET = withPermission(
  'read',
  async ({ params, actor, query }) => {
    const walletId = String(params.walletId ?? '');
    const addressId = String(params.addressId ?? '');
    const result = await loadAddressTransactions(walletId, addressId, query, actor.requestId);
    if (!result.ok) {
      return Response.json({ statusCode: result.status, message: result.error }, { status: result.status });
    }
    return Response.json(result.data, { headers: { 'cache-control': 'no-store' } });
  },
  querySchema,
);
