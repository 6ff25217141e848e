import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { DataTableSkeleton } from '@/components/data-table/data-table-skeleton';
import { StatementControls } from '@/components/statements/statement-controls';
import { StatementDifferencesTable, StatementLinesTable } from '@/components/statements/statement-tables';
import { StatementVerify } from '@/components/statements/statement-verify';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import type { CustodyClient } from '@/lib/custody';
import { formatAmount } from '@/lib/format';
import { describeFailure } from '@/lib/server/errors';
import { requirePage } from '@/lib/server/page-guard';
import { currentDb } from '@/lib/server/services';
import { loadStatements, walletStatementAssets } from '@/lib/server/statements';
import { custodyFor, findWalletConnection } from '@/lib/server/wallets';
import { parseStatementSearch, type Statement, statementPeriodOf } from '@/lib/validation/statements';

export const metadata: Metadata = { title: 'Statements' };

interface PageProps {
  params: Promise<{ walletId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function WalletStatementsPage({ params, searchParams }: PageProps) {
  const actor = await requirePage('read');
  const { walletId } = await params;
  const [wallet, client] = await Promise.all([findWalletConnection(walletId), custodyFor(walletId)]);
  if (!wallet || !client) notFound();
  const search = parseStatementSearch(await searchParams);
  const period = statementPeriodOf(search, new Date());
  let symbols: string[];
  try {
    symbols = (await walletStatementAssets(client, walletId)).assets.map((a) => a.symbol);
  } catch (error) {
    return (
      <Alert variant="destructive">
        <AlertTitle>The statement could not be prepared</AlertTitle>
        <AlertDescription>
          {describeFailure(error, actor.requestId, `assets of ${walletId}`).message}
        </AlertDescription>
      </Alert>
    );
  }
  const asset = symbols.includes(search.asset) ? search.asset : (symbols[0] ?? '');
  const from = period.ok ? period.from : search.from;
  const to = period.ok ? period.to : search.to;
  return (
    <section aria-labelledby="statements-heading" className="grid min-w-0 gap-4" data-statement>
      <div>
        <h2 id="statements-heading" className="text-xl font-semibold tracking-tight">
          Statement
        </h2>
        <p className="text-sm text-muted-foreground">
          Per asset of {wallet.name}, for whole days in UTC (the last calendar month unless you choose). The
          wallet is its master address and its child addresses together: a sweep from a child to the master is
          an internal move and only its network fee counts. Network fees are paid in the native asset and
          count on its statement.
        </p>
      </div>
      <StatementControls walletId={walletId} symbols={symbols} from={from} to={to} asset={asset} />
      {!period.ok ? (
        <Alert variant="destructive">
          <AlertTitle>Choose another period</AlertTitle>
          <AlertDescription>{period.error}</AlertDescription>
        </Alert>
      ) : symbols.length === 0 ? (
        <p className="rounded-md border p-6 text-center text-sm">This wallet has no assets to report on.</p>
      ) : (
        <Suspense
          key={`${from}:${to}:${asset}`}
          fallback={<DataTableSkeleton columnCount={6} label="Loading the statement" />}
        >
          <StatementSection
            client={client}
            walletId={walletId}
            from={from}
            to={to}
            asset={asset}
            requestId={actor.requestId}
          />
        </Suspense>
      )}
      <StatementVerify walletId={walletId} />
    </section>
  );
}

async function StatementSection({
  client,
  walletId,
  from,
  to,
  asset,
  requestId,
}: {
  client: CustodyClient;
  walletId: string;
  from: string;
  to: string;
  asset: string;
  requestId: string | null;
}) {
  let statement: Statement | undefined;
  try {
    [statement] = await loadStatements(await currentDb(), client, { walletId, from, to, symbols: [asset] });
  } catch (error) {
    return (
      <Alert variant="destructive">
        <AlertTitle>The statement could not be read</AlertTitle>
        <AlertDescription>
          {describeFailure(error, requestId, `statement of ${walletId}`).message}
        </AlertDescription>
      </Alert>
    );
  }
  if (!statement)
    return <p className="rounded-md border p-6 text-center text-sm">No such asset in this wallet.</p>;
  return <StatementReport statement={statement} />;
}

function StatementReport({ statement: s }: { statement: Statement }) {
  const amount = (v: string | null) =>
    v === null ? 'Unknown' : `${formatAmount(v, s.asset.decimals)} ${s.asset.symbol}`;
  const balanced = s.difference !== null && /^-?0(\.0*)?$/.test(s.difference);
  const rows: Array<[string, string, string]> = [
    [
      'Opening balance',
      amount(s.opening.amount),
      s.opening.source === 'recorded'
        ? `The closing balance of the previous statement, as written to the audit log on ${s.opening.recordedAt}`
        : "Derived: the closing balance less the service's listed transactions of the period",
    ],
    ['Deposits', amount(s.deposits), 'Sum of the lines below'],
    ['Swaps in', amount(s.swapsIn), 'Sum of the lines below'],
    ['Withdrawals', amount(s.withdrawals), 'Sum of the lines below'],
    ['Swaps out', amount(s.swapsOut), 'Sum of the lines below'],
    [
      'Fees',
      amount(s.fees),
      s.asset.native
        ? 'Network fees of the wallet, sum of the lines below'
        : 'Network fees are paid in the native asset',
    ],
    ['Opening + in − out − fees', amount(s.expectedClosing), 'Computed from the figures above'],
    [
      'Closing balance',
      amount(s.closing.amount),
      "The custody service's current balance (master and child addresses) less its listed transactions after the period",
    ],
  ];
  return (
    <div className="grid min-w-0 gap-4">
      <h3 className="text-lg font-semibold">
        {s.asset.symbol} · {s.from} to {s.to} (UTC)
      </h3>
      {s.notes.map((note) => (
        <p key={note} className="rounded-md border px-3 py-2 text-sm text-muted-foreground">
          {note}
        </p>
      ))}
      <dl className="grid min-w-0 gap-2 rounded-md border p-4 sm:grid-cols-[minmax(12rem,auto)_1fr]">
        {rows.map(([label, value, source]) => (
          <div key={label} className="contents">
            <dt className="font-medium">{label}</dt>
            <dd className="min-w-0">
              <span className="tabular-nums">{value}</span>
              <span className="block text-xs text-muted-foreground">{source}</span>
            </dd>
          </div>
        ))}
        <div className="contents">
          <dt className="font-medium">Difference</dt>
          <dd>
            <span className="tabular-nums font-semibold" data-testid="statement-difference">
              {amount(s.difference)}
            </span>
            <span className="block text-xs text-muted-foreground">
              {s.difference === null
                ? 'Unknown without balances from the service'
                : balanced
                  ? 'Balanced: every transaction the service lists matches the copy it signed'
                  : 'Does not balance: each difference is listed below'}
            </span>
          </dd>
        </div>
      </dl>
      {s.pending > 0 ? (
        <p className="text-sm text-muted-foreground">
          {s.pending} transaction{s.pending === 1 ? ' is' : 's are'} of the period still pending and not
          counted.
        </p>
      ) : null}
      {s.differences.length > 0 ? (
        <section aria-labelledby="statement-differences" className="grid min-w-0 gap-2">
          <h3 id="statement-differences" className="font-semibold">
            Differences
          </h3>
          <p className="text-sm text-muted-foreground">
            Each transaction whose figures in the service&apos;s list differ from the copy the service signed
            and sent by webhook, with both values.
          </p>
          <StatementDifferencesTable differences={s.differences} decimals={s.asset.decimals} />
        </section>
      ) : null}
      <section aria-labelledby="statement-lines" className="grid min-w-0 gap-2">
        <h3 id="statement-lines" className="font-semibold">
          Transactions
        </h3>
        <StatementLinesTable lines={s.lines} decimals={s.asset.decimals} />
      </section>
    </div>
  );
}
