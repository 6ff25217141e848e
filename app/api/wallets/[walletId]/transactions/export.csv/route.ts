// CSV of every row of the filtered view (all pages), streamed while the custody API is paged through.
import { audit } from '@/lib/server/guard';
import { logger } from '@/lib/server/logger';
import { walletNotConnected, withPermission } from '@/lib/server/route';
import { openTransactionCsvStream, withTransactionSource } from '@/lib/server/transactions';
import { custodyFor } from '@/lib/server/wallets';
import { transactionSearchSchema } from '@/lib/validation/transaction-search-schema';
import { filtersOf } from '@/lib/validation/transactions';

export const dynamic = 'force-dynamic';

export const GET = withPermission(
  'read',
  async ({ actor, params, query }) => {
    const walletId = String(params.walletId ?? '');
    const client = await custodyFor(walletId);
    if (!client) return walletNotConnected();
    // Paging is the export's own business: the file holds every page of the filtered view.
    const { page: _page, limit: _limit, ...filters } = filtersOf(query);
    const stamp = new Date().toISOString().replaceAll(':', '-').slice(0, 19);
    const onDone = ({ rows, error }: { rows: number; error?: unknown }) => {
      if (error)
        logger.warn({ requestId: actor.requestId, walletId, err: error }, 'transaction export failed midway');
      // Exports carry financial data out of the console: who took what is on record.
      void audit(actor, 'transactions.export', error ? 'failed' : 'success', {
        target: walletId,
        input: { ...filters, rows },
      }).catch((err) => logger.error({ err }, 'audit of transaction export failed'));
    };
    // Without the wallet-wide list the file holds the known child addresses' rows, merged by date.
    const stream = await withTransactionSource(client, walletId, (source) =>
      openTransactionCsvStream(client, walletId, filters, onDone, source),
    );
    return new Response(stream, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="transactions-${walletId.slice(0, 8)}-${stamp}.csv"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  },
  transactionSearchSchema,
);
