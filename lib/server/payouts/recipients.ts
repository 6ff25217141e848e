import 'server-only';
import { addressKey } from '@/lib/validation/addresses';
// Payout rows checked on the server against the wallet the custody service describes: the source is one of
// the wallet's, each row's address, asset, amount and reference, where money may go (address book entries past
// their cooling-off, under the destination policy), and (where asked) the source's balance per asset. Payout
// files and payout schedules both go through it.
import type { PayoutPayload } from '@/lib/validation/payouts';
import type { SourceBalanceMap } from '@/lib/validation/withdrawals';
import { checkDestinations } from '../address-book';
import { verifyTypedSource } from '../address-lookup';
import { sourceBalances, withdrawFormContext } from '../approvals';
import { currentDb } from '../services';
import type { PayoutFileRow } from './file';
import { type CheckedPayoutRow, checkPayoutRows } from './rows';

type FormContext = NonNullable<Awaited<ReturnType<typeof withdrawFormContext>>>;

export type RecipientsCheck =
  | { kind: 'ok'; payload: Pick<PayoutPayload, 'source' | 'items'> }
  | { kind: 'not-connected' }
  | { kind: 'bad-source'; error: string }
  | { kind: 'problems'; rows: CheckedPayoutRow[]; problemRows: number; total: number };

/** The source's balances per asset id; null (unknown, never blocking) when the service gives none. */
async function balancesOf(
  walletId: string,
  source: string,
  context: FormContext,
): Promise<SourceBalanceMap | null> {
  if (source === 'master')
    return context.balances === 'available'
      ? Object.fromEntries(context.assets.map((a) => [a.id, a.balance]))
      : null;
  if (context.balances === 'unsupported') return null;
  try {
    const balances = await sourceBalances(walletId, source);
    return balances ? Object.fromEntries(balances.map((b) => [b.assetId, b.balance])) : null;
  } catch {
    return null;
  }
}

/**
 * Why each recipient may not be paid, by address key: outside the address book while the destination policy is
 * on, or an entry still in its cooling-off (the same rules the engine holds the request to).
 */
async function notPayable(walletId: string, rows: PayoutFileRow[]): Promise<Map<string, string>> {
  const addresses = rows.map((r) => r.address.trim()).filter(Boolean);
  const { problems } = await checkDestinations(await currentDb(), walletId, addresses, new Date());
  return new Map(problems.map((p) => [addressKey(p.address), p.message]));
}

/**
 * Checks payout rows from `source` of a wallet. `balances: false` leaves the balance out (a schedule pays
 * later, from what the source holds then; each run's request is checked again when it is created).
 */
export async function checkPayoutRecipients(
  walletId: string,
  sourceId: string,
  rows: PayoutFileRow[],
  options: { balances: boolean },
): Promise<RecipientsCheck> {
  const context = await withdrawFormContext(walletId);
  if (!context) return { kind: 'not-connected' };
  const source = sourceId.trim();
  if (source !== 'master' && !context.sources.some((s) => s.id === source)) {
    const typed = await verifyTypedSource(walletId, source);
    if (!typed.ok) return { kind: 'bad-source', error: typed.error };
  }
  const checked = checkPayoutRows(rows, {
    assets: context.assets,
    chain: { isEvmCompatible: context.wallet.isEvmCompatible },
    balances: options.balances ? await balancesOf(walletId, source, context) : null,
    notPayable: await notPayable(walletId, rows),
  });
  if (!checked.ok)
    return {
      kind: 'problems',
      rows: checked.rows.filter((r) => r.problems.length > 0),
      problemRows: checked.problemRows,
      total: checked.rows.length,
    };
  return {
    kind: 'ok',
    payload: {
      source: source === 'master' ? { kind: 'master' } : { kind: 'address', addressId: source },
      items: checked.items,
    },
  };
}
