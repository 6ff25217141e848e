// One page of a wallet's (or one address's) transactions for the client table; same filters as the URL. The rows
// carry what the table and its drawer render (the API for other programs, /api/v1, answers whole records).
import { walletNotConnected, withPermission } from '@/lib/server/route';
import { listTransactionPage, toTransactionRowPage, withTransactionSource } from '@/lib/server/transactions';
import { custodyFor } from '@/lib/server/wallets';
import { transactionSearchSchema } from '@/lib/validation/transaction-search-schema';
import { filtersOf } from '@/lib/validation/transactions';

export const dynamic = 'force-dynamic';

export const GET = withPermission(
  'read',
  async ({ params, query }) => {
    const walletId = String(params.walletId ?? '');
    const client = await custodyFor(walletId);
    if (!client) return walletNotConnected();
    const filters = filtersOf(query);
    // Without the wallet-wide list the page is merged from the known child addresses (`scope` says so).
    const page = await withTransactionSource(client, walletId, (source) =>
      listTransactionPage(client, walletId, filters, source),
    );
    return Response.json(toTransactionRowPage(page), { headers: { 'cache-control': 'no-store' } });
  },
  transactionSearchSchema,
);
