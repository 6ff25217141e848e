import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { DataTableSkeleton } from '@/components/data-table/data-table-skeleton';
import { TransactionsTable } from '@/components/transactions/transactions-table';
import type { CustodyClient } from '@/lib/custody';
import { capabilitiesOf } from '@/lib/server/capabilities';
import { describeFailure } from '@/lib/server/errors';
import { requirePage } from '@/lib/server/page-guard';
import { can } from '@/lib/server/permissions';
import {
  listTransactionPage,
  type TransactionRowPage,
  toTransactionRowPage,
  withTransactionSource,
} from '@/lib/server/transactions';
import { custodyFor, findWalletConnection } from '@/lib/server/wallets';
import {
  filtersOf,
  parseTransactionSearch,
  serializeTransactionSearch,
  type TransactionFilterState,
} from '@/lib/validation/transactions';

export const metadata: Metadata = { title: 'Transactions' };

interface PageProps {
  params: Promise<{ walletId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function WalletTransactionsPage({ params, searchParams }: PageProps) {
  const actor = await requirePage('read');
  const { walletId } = await params;
  const [wallet, client, capabilities] = await Promise.all([
    findWalletConnection(walletId),
    custodyFor(walletId),
    capabilitiesOf(walletId),
  ]);
  if (!wallet || !client) notFound();
  // Parsed once here with the nuqs loader; the client table reads the same URL through the same parsers
  // (`transactionSearchParsers`). Filters, sort and page all run on the server over the whole result.
  const filters = filtersOf(parseTransactionSearch(await searchParams));
  return (
    <section aria-labelledby="transactions-heading" className="grid gap-4">
      <div>
        <h2 id="transactions-heading" className="text-xl font-semibold tracking-tight">
          Transactions
        </h2>
        <p className="text-sm text-muted-foreground">
          Deposits, withdrawals, swaps and contract calls of {wallet.name}. Open a row for every detail.
        </p>
        {capabilities.walletTransactions ? null : (
          <p className="mt-2 rounded-md border px-3 py-2 text-sm text-muted-foreground">
            This custody service cannot list a wallet&apos;s transactions, so this page shows the transactions
            of the child addresses the console knows, merged by date (sorted by the console for other
            columns). Master-wallet transactions need the service&apos;s wallet-wide transaction list.
          </p>
        )}
      </div>
      <Suspense key={serializeTransactionSearch(filters)} fallback={<DataTableSkeleton columnCount={8} />}>
        <TransactionsSection
          client={client}
          walletId={walletId}
          filters={filters}
          requestId={actor.requestId}
          canRetry={can(actor.role, 'transaction.retry')}
          canResend={can(actor.role, 'webhook.resend')}
        />
      </Suspense>
    </section>
  );
}

async function TransactionsSection({
  client,
  walletId,
  filters,
  requestId,
  canRetry,
  canResend,
}: {
  client: CustodyClient;
  walletId: string;
  filters: TransactionFilterState;
  requestId: string | null;
  canRetry: boolean;
  canResend: boolean;
}) {
  const [page, symbols] = await Promise.all([
    withTransactionSource(client, walletId, (source) =>
      listTransactionPage(client, walletId, filters, source),
    ).then(
      // Only what the table and its drawer render crosses to the browser.
      (data): { ok: true; data: TransactionRowPage } => ({ ok: true, data: toTransactionRowPage(data) }),
      (error: unknown) => ({
        ok: false as const,
        error: describeFailure(error, requestId, `transactions of ${walletId}`).message,
      }),
    ),
    // Only the symbols leave the server; a failed read costs the asset filter its options, nothing more.
    client.wallets
      .get({ walletId })
      .then((w) => [...new Set(w.data.assets.map((a) => a.asset.symbol))].sort())
      .catch(() => [] as string[]),
  ]);
  return (
    <TransactionsTable
      walletId={walletId}
      assetSymbols={symbols}
      initialFilters={filters}
      initialPage={page.ok ? page.data : null}
      initialError={page.ok ? null : page.error}
      canRetry={canRetry}
      canResend={canResend}
    />
  );
}
