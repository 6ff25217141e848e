// Swap requests (#20) as people fill them in and as the approval engine stores them. Shared by the form and
// the server actions: the same input gets the same message in both places.
import { createLoader, parseAsString } from 'nuqs/server';
import { SETTLEMENT_ORDERS } from '@/lib/custody/constants';
import { formatAssetAmount } from '@/lib/format';
import { checkAmount, decimalsMessage, exceedsBalance } from './amounts';
import { parseMetadata } from './control-characters';

export const SWAP_ORDERS = SETTLEMENT_ORDERS;
type SwapOrder = (typeof SWAP_ORDERS)[number];

/** What the form sends: raw text, checked against the source's balances by `validateSwap` (shape: `swap-schema.ts`). */
export interface SwapFormValues {
  walletId: string;
  addressId: string;
  fromAssetId: string;
  toAssetId: string;
  amount: string;
  order: SwapOrder;
  metadata?: string | undefined;
}

/** The stored payload of a swap request (hashed by the engine: everything that will be sent). */
export interface SwapPayload {
  addressId: string;
  fromAssetId: string;
  fromSymbol: string;
  fromDecimals: number;
  toAssetId: string;
  toSymbol: string;
  toDecimals: number;
  amount: string;
  order: SwapOrder;
  metadata?: Record<string, unknown>;
}

export interface SwapAsset {
  id: string;
  symbol: string;
  decimals: number;
  /** The source address's balance; null when unknown. */
  balance: string | null;
  priceUsd: string | null;
}

export type SwapValidation =
  | { ok: true; payload: SwapPayload }
  | { ok: false; error: string; fieldErrors: Record<string, string> };

/**
 * The limit an amount breaks, checked as the person types: more decimals than the asset has, or more than
 * the address holds (when its balance is known). Null when neither.
 */
export function swapAmountLimit(amount: string, from: SwapAsset): string | null {
  const precision = decimalsMessage(amount, from.decimals, from.symbol);
  if (precision) return precision;
  const check = checkAmount(amount, from.decimals, from.symbol);
  if (check.ok && exceedsBalance(check.units, from.balance, from.decimals))
    return `The amount is above the address's balance (${formatAssetAmount(from.balance, from.decimals, from.symbol)}).`;
  return null;
}

/** Checks a swap against the source address's assets and balances. */
export function validateSwap(values: Omit<SwapFormValues, 'walletId'>, assets: SwapAsset[]): SwapValidation {
  const fieldErrors: Record<string, string> = {};
  const from = assets.find((a) => a.id === values.fromAssetId);
  const to = assets.find((a) => a.id === values.toAssetId);
  if (!values.addressId) fieldErrors.addressId = 'Choose the child address to swap from.';
  if (!from) fieldErrors.fromAssetId = 'Choose an asset of this wallet to swap from.';
  if (!to) fieldErrors.toAssetId = 'Choose an asset of this wallet to receive.';
  if (from && to && from.id === to.id) fieldErrors.toAssetId = 'Choose a different asset to receive.';
  if (!SWAP_ORDERS.includes(values.order)) fieldErrors.order = 'Choose an order.';
  let amount: string | null = null;
  if (from) {
    const check = checkAmount(values.amount, from.decimals, from.symbol);
    if (!check.ok) fieldErrors.amount = check.message;
    else {
      amount = check.value;
      const limit = swapAmountLimit(values.amount, from);
      if (limit) fieldErrors.amount = limit;
    }
  }
  const metadata = parseMetadata(values.metadata);
  if (!metadata.ok) fieldErrors.metadata = metadata.message;
  const first = Object.values(fieldErrors)[0];
  if (first || !from || !to || amount === null || !metadata.ok)
    return { ok: false, error: first ?? 'Check the form.', fieldErrors };
  return {
    ok: true,
    payload: {
      addressId: values.addressId,
      fromAssetId: from.id,
      fromSymbol: from.symbol,
      fromDecimals: from.decimals,
      toAssetId: to.id,
      toSymbol: to.symbol,
      toDecimals: to.decimals,
      amount,
      order: values.order,
      ...(metadata.value ? { metadata: metadata.value } : {}),
    },
  };
}

/**
 * The expected rate (units of `to` per unit of `from`) from the USD prices the balances give; the venue's
 * spread and slippage come on top, so people see it labelled "expected".
 */
export function expectedRate(fromPriceUsd: string | null, toPriceUsd: string | null): string | null {
  const f = Number(fromPriceUsd);
  const t = Number(toPriceUsd);
  if (!fromPriceUsd || !toPriceUsd || !Number.isFinite(f) || !Number.isFinite(t) || f <= 0 || t <= 0)
    return null;
  return String(Number((f / t).toPrecision(8)));
}

export function expectedToAmount(amount: string, rate: string | null): string | null {
  if (rate === null) return null;
  const value = Number(amount) * Number(rate);
  return Number.isFinite(value) ? String(Number(value.toPrecision(8))) : null;
}

/** URL state of the swap page: the child address the form starts with (`?address=`). */
const swapSearchParams = { address: parseAsString };

/** Reads the page's `searchParams` (the server page). */
export const loadSwapSearch = createLoader(swapSearchParams);
