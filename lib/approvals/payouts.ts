// A payout file as approvers see it: every row with its checks, the service batches it is sent in, totals per
// asset, and each batch's outcome once sent. Browser-safe: the review panel and the engine share these.

import { sumDecimals } from '@/lib/validation/amounts';
import type { LimitCheck } from './limits';
import type { ReviewSource, ReviewWallet } from './types';

/** The spec caps withdrawal batches at 20 items (Limits): a payout file is sent in calls of at most this many. */
export const PAYOUT_BATCH_SIZE = 20;

/** Item index ranges `[from, to)` of the service calls a payout of `count` rows is sent in. */
export function batchRanges(count: number, size = PAYOUT_BATCH_SIZE): Array<{ from: number; to: number }> {
  const ranges: Array<{ from: number; to: number }> = [];
  for (let from = 0; from < count; from += size) ranges.push({ from, to: Math.min(count, from + size) });
  return ranges;
}

export interface PayoutReviewRow {
  index: number;
  /** The row's line in the file (the header is line 1). */
  line: number;
  /** 1-based number of the batch the row is sent in. */
  batch: number;
  address: string;
  amount: string;
  symbol: string;
  decimals: number;
  assetId: string;
  usd: number | null;
  /** Upstream reference: the file's own, or one derived from the request. */
  reference: string;
  label: string | null;
  /** The address book entry (or whitelisted address) the recipient is, by its name. */
  bookName: string | null;
  aml: { status: string; provider: string; message: string } | null;
  warnings: string[];
}

export interface PayoutAssetTotal {
  symbol: string;
  amount: string;
  rows: number;
}

/** Totals per asset, computed from the rows (the one place a payout's totals come from). */
export function payoutTotals(
  rows: ReadonlyArray<{ symbol: string; amount: string; decimals: number }>,
): PayoutAssetTotal[] {
  const bySymbol = new Map<string, { decimals: number; amounts: string[] }>();
  for (const row of rows) {
    const entry = bySymbol.get(row.symbol) ?? { decimals: row.decimals, amounts: [] };
    entry.amounts.push(row.amount);
    bySymbol.set(row.symbol, entry);
  }
  return [...bySymbol.entries()].map(([symbol, e]) => ({
    symbol,
    amount: sumDecimals(e.amounts, e.decimals),
    rows: e.amounts.length,
  }));
}

export type PayoutReview = {
  kind: 'payout';
  /** The spending limits that apply and what each leaves after this request (absent: no limit applies). */
  limits?: LimitCheck;
  fileName: string;
  wallet: ReviewWallet;
  source: ReviewSource;
  rows: PayoutReviewRow[];
  batches: Array<{ number: number; from: number; to: number; rows: number }>;
  totals: { usd: number | null; byAsset: PayoutAssetTotal[] };
  /** The service's network fee estimate, summed over the batches. */
  fee: { symbol: string; total: string | null; totalUsd: number | null; error: string | null };
  nativeBalance: { symbol: string; before: string | null; after: string | null };
  warnings: string[];
  builtAt: string;
};

/**
 * A batch's outcome: `submitted` the service accepted the call (its transactions are followed by reference),
 * `failed` the service refused it (its message; an approver may send it again), `unknown` the answer was lost
 * (looked up by reference before anything is sent again), `not_sent` waiting behind an earlier batch.
 */
export type PayoutBatchState = 'not_sent' | 'submitted' | 'failed' | 'unknown';

export interface PayoutBatchOutcome {
  number: number;
  from: number;
  to: number;
  state: PayoutBatchState;
  message: string | null;
  /** When the state was last set. */
  at: string | null;
  /** Found at the service by reference after a lost answer, rather than accepted in an answer. */
  linked: boolean;
}

export type PayoutResult = { batches: PayoutBatchOutcome[] };

/** What a batch row says: its state at submission, carried on by its transactions once the service settles them. */
export type PayoutBatchShown = PayoutBatchState | 'settled' | 'failed_on_chain';

/**
 * A submitted batch is "settled" once every payment in it has settled at the service, and failed on chain once
 * any of them failed there; until then it stays "submitted". Other states are shown as stored.
 */
export function payoutBatchShown(
  batch: Pick<PayoutBatchOutcome, 'from' | 'to' | 'state'>,
  items: ReadonlyArray<{ index: number; status: string | null }>,
): PayoutBatchShown {
  if (batch.state !== 'submitted') return batch.state;
  const statuses = items.filter((i) => i.index >= batch.from && i.index < batch.to).map((i) => i.status);
  if (statuses.some((s) => s === 'FAILED')) return 'failed_on_chain';
  if (statuses.length === batch.to - batch.from && statuses.every((s) => s === 'SUCCESS')) return 'settled';
  return 'submitted';
}
