// Withdrawal requests (#12, #13, #14) as the form holds them and as the server action receives them: one
// validator for the meaning (asset decimals, chain addresses). The shape's schema is in `withdrawal-schema.ts`,
// so that the form loads zod only when it first validates; the CSV import is `withdrawal-csv.ts`, loaded at the
// first import.
import { formatUnits } from 'viem';
import { formatAssetAmount } from '@/lib/format';
import { addressKey, checkRecipientAddress } from './addresses';
import { checkAmount, decimalsMessage, exceedsBalance } from './amounts';
import { parseMetadata } from './control-characters';

/** The spec caps withdrawal batches at 20 items (Limits). */
export const MAX_RECIPIENTS = 20;
export const WITHDRAWAL_KINDS = ['withdraw', 'withdrawSign'] as const;

/** One recipient row as the form holds it (`withdrawal-schema.ts` checks its shape). */
export interface WithdrawalFormRow {
  address: string;
  amount: string;
  assetId: string;
  reference: string;
  note: string;
  metadata: string;
}

export interface WithdrawalFormValues {
  walletId: string;
  kind: (typeof WITHDRAWAL_KINDS)[number];
  /** `master`, or the id of a child address. */
  source: string;
  rows: WithdrawalFormRow[];
}

export function emptyRow(assetId = ''): WithdrawalFormRow {
  return { address: '', amount: '', assetId, reference: '', note: '', metadata: '' };
}

/** What the picker offers: the wallet's active assets. `id` is what the custody API takes as the item `id`. */
export interface AssetOption {
  id: string;
  symbol: string;
  decimals: number;
  isActive?: boolean;
}

interface WithdrawalItemPayload {
  assetId: string;
  symbol: string;
  decimals: number;
  /** Checksummed on EVM chains. */
  address: string;
  /** Canonical decimal string. */
  amount: string;
  /** The person's own reference: sent as the upstream reference (else one is derived from the request). */
  reference?: string;
  note?: string;
  metadata?: Record<string, unknown>;
}

export interface WithdrawalPayload {
  source: { kind: 'master' } | { kind: 'address'; addressId: string };
  items: WithdrawalItemPayload[];
}

/**
 * The source's balance per asset id, as the custody service reports it. An asset missing from the map, or
 * a null map (the service gives no balances, or the read failed), is unknown: it never blocks a request.
 */
export type SourceBalanceMap = Record<string, string | null | undefined>;

export interface WithdrawalContext {
  assets: AssetOption[];
  chain: { isEvmCompatible?: boolean | null };
  balances?: SourceBalanceMap | null;
}

/**
 * Rows whose asset totals more than the source holds, keyed `rows.<index>.amount`. Rows of one asset are
 * added up: two payments that each fit can still empty the source together.
 */
function balanceErrors(
  rows: Array<{ amount: string; assetId: string }>,
  assets: AssetOption[],
  balances: SourceBalanceMap | null | undefined,
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!balances) return errors;
  const totals = new Map<string, { asset: AssetOption; units: bigint; indexes: number[] }>();
  rows.forEach((row, index) => {
    const asset = assets.find((a) => a.id === row.assetId && a.isActive !== false);
    if (!asset) return;
    const amount = checkAmount(row.amount, asset.decimals, asset.symbol);
    if (!amount.ok) return;
    const entry = totals.get(asset.id) ?? { asset, units: 0n, indexes: [] };
    entry.units += amount.units;
    entry.indexes.push(index);
    totals.set(asset.id, entry);
  });
  for (const { asset, units, indexes } of totals.values()) {
    const balance = balances[asset.id];
    if (!exceedsBalance(units, balance, asset.decimals)) continue;
    const held = formatAssetAmount(balance, asset.decimals, asset.symbol);
    const message =
      indexes.length === 1
        ? `Above the source's balance of ${held}.`
        : `The ${asset.symbol} amounts total ${formatAssetAmount(formatUnits(units, asset.decimals), asset.decimals, asset.symbol)}, above the source's balance of ${held}.`;
    for (const index of indexes) errors[`rows.${index}.amount`] = message;
  }
  return errors;
}

/**
 * The limits the console knows before anything is sent, checked as the person types: at most 20
 * recipients, no more decimals than the asset has, no more of an asset than the source holds (when its
 * balance is known). Keyed like the field errors of `validateWithdrawal`; empty when none is broken.
 */
export function withdrawalLimitErrors(
  values: { rows: Array<{ amount: string; assetId: string }> },
  context: { assets: AssetOption[]; balances?: SourceBalanceMap | null },
): Record<string, string> {
  if (values.rows.length > MAX_RECIPIENTS)
    return { rows: `At most ${MAX_RECIPIENTS} recipients per request.` };
  const errors: Record<string, string> = {};
  values.rows.forEach((row, index) => {
    const asset = context.assets.find((a) => a.id === row.assetId && a.isActive !== false);
    const message = asset ? decimalsMessage(row.amount ?? '', asset.decimals, asset.symbol) : null;
    if (message) errors[`rows.${index}.amount`] = message;
  });
  return { ...balanceErrors(values.rows, context.assets, context.balances), ...errors };
}

export type WithdrawalValidation =
  | { ok: true; payload: WithdrawalPayload; duplicates: number[][] }
  | { ok: false; fieldErrors: Record<string, string>; error: string };

export const REFERENCE = /^[A-Za-z0-9._:/#-]{1,64}$/;

/** Groups of row indexes (0-based) that pay the same asset to the same address. */
export function duplicateRecipients(rows: Array<{ address: string; assetId: string }>): number[][] {
  const groups = new Map<string, number[]>();
  rows.forEach((row, index) => {
    if (!row.address.trim()) return;
    const key = `${addressKey(row.address)}|${row.assetId}`;
    groups.set(key, [...(groups.get(key) ?? []), index]);
  });
  return [...groups.values()].filter((g) => g.length > 1);
}

/**
 * Validates every row against the wallet's assets and chain; the request is only created when this passes.
 * Field errors are keyed `rows.<index>.<field>`.
 */
export function validateWithdrawal(
  values: WithdrawalFormValues,
  context: WithdrawalContext,
): WithdrawalValidation {
  const fieldErrors: Record<string, string> = {};
  const items: WithdrawalItemPayload[] = [];
  if (values.rows.length === 0)
    return {
      ok: false,
      fieldErrors: { rows: 'Add at least one recipient.' },
      error: 'Add at least one recipient.',
    };
  if (values.rows.length > MAX_RECIPIENTS) {
    const error = `At most ${MAX_RECIPIENTS} recipients per request.`;
    return { ok: false, fieldErrors: { rows: error }, error };
  }
  values.rows.forEach((row, index) => {
    const at = (field: string) => `rows.${index}.${field}`;
    const asset = context.assets.find((a) => a.id === row.assetId && a.isActive !== false);
    if (!asset)
      fieldErrors[at('assetId')] = row.assetId
        ? 'This asset is not active on the wallet.'
        : 'Choose an asset.';
    const address = checkRecipientAddress(row.address, context.chain);
    if (!address.ok) fieldErrors[at('address')] = address.message;
    const amount = asset
      ? checkAmount(row.amount, asset.decimals, asset.symbol)
      : checkAmount(row.amount, 18);
    if (!amount.ok) fieldErrors[at('amount')] = amount.message;
    const reference = row.reference.trim();
    if (reference && !REFERENCE.test(reference))
      fieldErrors[at('reference')] = 'Use up to 64 letters, digits and . _ : / # - for the reference.';
    else if (reference && values.rows.findIndex((r) => r.reference.trim() === reference) !== index)
      // Each payment is found again by its reference: two in one request could not be told apart.
      fieldErrors[at('reference')] = 'Each recipient needs its own reference.';
    const note = row.note.trim();
    if (note.length > 280) fieldErrors[at('note')] = 'Keep the note under 280 characters.';
    const metadata = parseMetadata(row.metadata);
    if (!metadata.ok) fieldErrors[at('metadata')] = metadata.message;
    if (asset && address.ok && amount.ok && metadata.ok) {
      items.push({
        assetId: asset.id,
        symbol: asset.symbol,
        decimals: asset.decimals,
        address: address.address,
        amount: amount.value,
        ...(reference ? { reference } : {}),
        ...(note ? { note } : {}),
        ...(metadata.value ? { metadata: metadata.value } : {}),
      });
    }
  });
  for (const [key, message] of Object.entries(balanceErrors(values.rows, context.assets, context.balances)))
    fieldErrors[key] ??= message;
  const source = values.source.trim();
  if (values.kind === 'withdrawSign' && source !== 'master')
    fieldErrors.source = 'Sign-only withdrawals are signed by the master wallet.';
  const count = Object.keys(fieldErrors).length;
  if (count > 0) {
    return {
      ok: false,
      fieldErrors,
      error: count === 1 ? 'Fix the highlighted field.' : `Fix the ${count} highlighted fields.`,
    };
  }
  return {
    ok: true,
    payload: {
      source: source === 'master' ? { kind: 'master' } : { kind: 'address', addressId: source },
      items,
    },
    duplicates: duplicateRecipients(items.map((i) => ({ address: i.address, assetId: i.assetId }))),
  };
}
