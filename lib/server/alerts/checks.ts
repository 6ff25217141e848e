import 'server-only';
// The periodic checks behind the alerts nobody's action raises: a wallet's webhook endpoint failing, a
// transaction pending too long, a native (gas) balance below its threshold. Each runs over every connected
// wallet, reads what the service offers, and raises at most once per cause (see each dedupe key).
import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { CustodyClient } from '@/lib/custody';
import { type ConsoleDb, operationItems, operationRequests, walletConnections } from '@/lib/db/schema';
import { serializeTransactionSearch } from '@/lib/validation/transactions';
import { logger } from '../logger';
import { endpointHealth } from '../webhook-health';
import { type AlertSink, activeUserIds } from './outbox';

export interface AlertCheckDeps {
  db: ConsoleDb;
  sink: AlertSink;
  clientFor(walletId: string): Promise<CustodyClient | null>;
  now?: () => Date;
  /** Failed tries in a row that make the endpoint "failing" (ALERT_WEBHOOK_STREAK). */
  streakThreshold: number;
  /** Minutes a transaction may stay PENDING (ALERT_PENDING_MINUTES). */
  pendingMinutes: number;
  /** Native balance below which gas is "low", in whole units (ALERT_GAS_MIN_BALANCE). */
  gasMinBalance: string;
}

const log = logger.child({ component: 'alert-checks' });

async function wallets(db: ConsoleDb) {
  return db.select({ id: walletConnections.id, name: walletConnections.name }).from(walletConnections);
}

/** Each wallet's check on its own: one wallet's unreachable service never hides another's alert. */
async function eachWallet(
  deps: AlertCheckDeps,
  check: string,
  run: (wallet: { id: string; name: string }, client: CustodyClient) => Promise<void>,
): Promise<void> {
  for (const wallet of await wallets(deps.db)) {
    try {
      const client = await deps.clientFor(wallet.id);
      if (client) await run(wallet, client);
    } catch (error) {
      log.debug(
        { walletId: wallet.id, check, reason: (error as Error)?.message },
        'alert check skipped a wallet',
      );
    }
  }
}

/**
 * The endpoint's failure streak (as the webhooks page computes it) at or above the threshold: one alert per
 * streak, keyed by the last success before it, so the next alert waits for a success and a new streak.
 */
export async function checkWebhookStreaks(deps: AlertCheckDeps): Promise<void> {
  const now = deps.now?.() ?? new Date();
  await eachWallet(deps, 'webhook-streak', async (wallet, client) => {
    const page = await client.webhooks.list({ walletId: wallet.id, page: 1, limit: 100 });
    const health = endpointHealth(page.data, now);
    if (health.failureStreak < deps.streakThreshold) return;
    await deps.sink.raise({
      event: 'webhook_failing',
      userIds: await activeUserIds(deps.db),
      subject: `Webhook endpoint failing: ${wallet.name}`,
      body: `The last ${health.failureStreak} webhook deliveries of wallet ${wallet.name} failed in a row${
        health.lastSuccessAt ? ` (last success ${health.lastSuccessAt})` : ''
      }. Check the endpoint, then resend the failed deliveries.`,
      path: `/wallets/${encodeURIComponent(wallet.id)}/webhooks`,
      dedupeKey: `webhook-failing:${wallet.id}:${health.lastSuccessAt ?? 'never'}`,
    });
  });
}

/**
 * Transactions still PENDING after the set minutes: every transaction of the wallet where the service lists them
 * (the wallet-wide list extension, deposits included), and on every service the ones the console submitted
 * itself. One alert per transaction (the same key whichever way it was found).
 */
export async function checkPendingTransactions(deps: AlertCheckDeps): Promise<void> {
  const now = deps.now?.() ?? new Date();
  const before = new Date(now.getTime() - deps.pendingMinutes * 60_000);
  const everyone = await activeUserIds(deps.db);
  const raise = (transactionId: string, what: string, path: string) =>
    deps.sink.raise({
      event: 'transaction_pending',
      userIds: everyone,
      subject: `Transaction pending over ${deps.pendingMinutes} minutes`,
      body: `Transaction ${transactionId} ${what} has been pending for more than ${deps.pendingMinutes} minutes.`,
      path,
      dedupeKey: `pending:${transactionId}`,
    });
  await eachWallet(deps, 'pending', async (wallet, client) => {
    const page = await client.wallets.listTransactions({
      walletId: wallet.id,
      status: 'PENDING',
      limit: 100,
    });
    for (const tx of page.data) {
      const created = Date.parse(tx.createdAt);
      if (tx.status !== 'PENDING' || Number.isNaN(created) || created >= before.getTime()) continue;
      const query = serializeTransactionSearch({ status: 'PENDING', open: tx.id });
      await raise(
        tx.id,
        `(${tx.type} of wallet ${wallet.name})`,
        `/wallets/${encodeURIComponent(wallet.id)}/transactions${query ? `?${query}` : ''}`,
      );
    }
  });
  const stuck = await deps.db
    .select({
      requestId: operationRequests.id,
      summary: operationRequests.summary,
      transactionId: operationItems.transactionId,
    })
    .from(operationItems)
    .innerJoin(operationRequests, eq(operationRequests.id, operationItems.requestId))
    .where(
      and(
        eq(operationRequests.status, 'SUBMITTED'),
        isNotNull(operationItems.transactionId),
        sql`coalesce(${operationItems.status}, 'PENDING') = 'PENDING'`,
        lt(sql`coalesce(${operationRequests.lastAttemptAt}, ${operationRequests.updatedAt})`, before),
      ),
    )
    .limit(200);
  for (const item of stuck)
    await raise(item.transactionId ?? '', `of the request "${item.summary}"`, `/approvals/${item.requestId}`);
}

/** Exact comparison of two non-negative decimal strings: a < b. */
export function decimalBelow(a: string, b: string): boolean {
  const [ai = '0', af = ''] = a.trim().split('.');
  const [bi = '0', bf = ''] = b.trim().split('.');
  const scale = Math.max(af.length, bf.length);
  const toBig = (i: string, f: string) => BigInt((i.replace(/^-/, '') || '0') + f.padEnd(scale, '0'));
  if (a.trim().startsWith('-')) return true;
  return toBig(ai, af) < toBig(bi, bf);
}

/**
 * The master wallet's native asset (the one without a token contract) below the threshold, through the
 * balances extension; a service without it is not checked. At most one alert a day per wallet while low.
 */
export async function checkGasBalances(deps: AlertCheckDeps): Promise<void> {
  const now = deps.now?.() ?? new Date();
  await eachWallet(deps, 'gas', async (wallet, client) => {
    const balances = await client.wallets.balances({ walletId: wallet.id });
    const native = balances.data.find((b) => !b.asset.asset.address);
    if (!native || !/^-?\d+(\.\d+)?$/.test(native.balance)) return;
    if (!decimalBelow(native.balance, deps.gasMinBalance)) return;
    const symbol = native.asset.asset.symbol;
    await deps.sink.raise({
      event: 'gas_low',
      userIds: await activeUserIds(deps.db),
      subject: `Gas balance low: ${wallet.name}`,
      body: `Wallet ${wallet.name} holds ${native.balance} ${symbol}, below ${deps.gasMinBalance} ${symbol}: withdrawals and contract calls may fail for lack of fees.`,
      path: `/wallets/${encodeURIComponent(wallet.id)}`,
      dedupeKey: `gas-low:${wallet.id}:${now.toISOString().slice(0, 10)}`,
    });
  });
}

/** One round of every check. */
export async function runAlertChecks(deps: AlertCheckDeps): Promise<void> {
  for (const check of [checkWebhookStreaks, checkPendingTransactions, checkGasBalances]) {
    await check(deps).catch((error) => log.warn({ err: error }, 'an alert check failed'));
  }
}
