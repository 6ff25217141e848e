import 'server-only';
// The checks of a payout file's rows against the wallet's assets, chain and balances and its address book:
// address checksum, the asset and its decimals, the reference, an entry still cooling off, and the source's
// balance per asset. Each row keeps its own problems; a file with any is never turned into a request.
import { formatUnits } from 'viem';
import { formatAssetAmount } from '@/lib/format';
import { addressKey, checkRecipientAddress } from '@/lib/validation/addresses';
import { checkAmount, exceedsBalance } from '@/lib/validation/amounts';
import { textProblem } from '@/lib/validation/control-characters';
import type { PayoutItemPayload } from '@/lib/validation/payouts';
import { type AssetOption, REFERENCE, type SourceBalanceMap } from '@/lib/validation/withdrawals';
import type { PayoutFileRow } from './file';

export interface CheckedPayoutRow {
  line: number;
  address: string;
  amount: string;
  asset: string;
  reference: string;
  label: string;
  problems: string[];
}

export interface PayoutRowsContext {
  assets: AssetOption[];
  chain: { isEvmCompatible?: boolean | null };
  /** Null: the balances are unknown, which never blocks. */
  balances: SourceBalanceMap | null;
  /** Why an address may not be paid (outside the address book, or an entry in its cooling-off), by address key. */
  notPayable?: ReadonlyMap<string, string>;
}

export type PayoutRowsCheck =
  | { ok: true; rows: CheckedPayoutRow[]; items: PayoutItemPayload[] }
  | { ok: false; rows: CheckedPayoutRow[]; problemRows: number };

const MAX_LABEL = 280;

export function checkPayoutRows(rows: PayoutFileRow[], context: PayoutRowsContext): PayoutRowsCheck {
  const checked: CheckedPayoutRow[] = [];
  const items: Array<PayoutItemPayload | null> = [];
  const firstLineOf = new Map<string, number>();
  const totals = new Map<string, { asset: AssetOption; units: bigint; indexes: number[] }>();
  rows.forEach((row, index) => {
    const problems: string[] = [];
    const wanted = row.asset.toLowerCase();
    const asset = context.assets.find(
      (a) => a.isActive !== false && (a.id === row.asset || a.symbol.toLowerCase() === wanted),
    );
    if (!asset)
      problems.push(row.asset ? `Unknown or inactive asset "${row.asset}".` : 'The asset is missing.');
    const address = checkRecipientAddress(row.address, context.chain);
    if (!address.ok) problems.push(address.message);
    const waiting = address.ok ? context.notPayable?.get(addressKey(address.address)) : undefined;
    if (waiting) problems.push(waiting);
    const amount = asset ? checkAmount(row.amount, asset.decimals, asset.symbol) : null;
    if (amount && !amount.ok) problems.push(amount.message);
    const reference = row.reference;
    if (reference) {
      const first = firstLineOf.get(reference);
      if (!REFERENCE.test(reference))
        problems.push('Use up to 64 letters, digits and . _ : / # - for the reference.');
      // Each payment is found again by its reference: two in one payout could not be told apart.
      else if (first !== undefined) problems.push(`The reference is also used on line ${first}.`);
      else firstLineOf.set(reference, row.line);
    }
    if (row.label.length > MAX_LABEL) problems.push(`Keep the label under ${MAX_LABEL} characters.`);
    const textIssue = textProblem(row.label) ?? textProblem(row.reference);
    if (textIssue) problems.push(`${textIssue} from the reference and label.`);
    if (asset && amount?.ok) {
      const entry = totals.get(asset.id) ?? { asset, units: 0n, indexes: [] };
      entry.units += amount.units;
      entry.indexes.push(index);
      totals.set(asset.id, entry);
    }
    checked.push({ ...row, address: address.ok ? address.address : row.address, problems });
    items.push(
      asset && address.ok && amount?.ok && problems.length === 0
        ? {
            line: row.line,
            assetId: asset.id,
            symbol: asset.symbol,
            decimals: asset.decimals,
            address: address.address,
            amount: amount.value,
            ...(reference ? { reference } : {}),
            ...(row.label ? { label: row.label } : {}),
          }
        : null,
    );
  });
  // Rows of one asset are added up: payments that each fit can still empty the source together.
  if (context.balances) {
    for (const { asset, units, indexes } of totals.values()) {
      const balance = context.balances[asset.id];
      if (!exceedsBalance(units, balance, asset.decimals)) continue;
      const message = `The ${asset.symbol} payments total ${formatAssetAmount(formatUnits(units, asset.decimals), asset.decimals, asset.symbol)}, above the source's balance of ${formatAssetAmount(balance, asset.decimals, asset.symbol)}.`;
      for (const index of indexes) {
        checked[index]?.problems.push(message);
        items[index] = null;
      }
    }
  }
  const problemRows = checked.filter((r) => r.problems.length > 0).length;
  if (problemRows > 0) return { ok: false, rows: checked, problemRows };
  return { ok: true, rows: checked, items: items.filter((i): i is PayoutItemPayload => i !== null) };
}
