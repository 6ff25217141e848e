// Swap requests as the browser sees them: the review stored with the request and the submission's result.

import type { LimitCheck } from './limits';
import type { ReviewAddress, ReviewWallet } from './types';

export type SwapReview = {
  kind: 'swap';
  /** The spending limits that apply and what each leaves after this request (absent: no limit applies). */
  limits?: LimitCheck;
  wallet: ReviewWallet;
  source: ReviewAddress;
  from: { assetId: string; symbol: string; decimals: number; amount: string; balance: string | null };
  to: { assetId: string; symbol: string; decimals: number };
  order: string;
  orderExplanation: string;
  /** Units of `to` per unit of `from` from USD prices; the venue's spread comes on top. */
  expectedRate: string | null;
  expectedToAmount: string | null;
  amountUsd: number | null;
  metadata: Record<string, unknown> | null;
  warnings: string[];
  builtAt: string;
  /** The service's quote when the request was made (an extension endpoint); null when it gives none. */
  quote: SwapQuoteView | null;
  /** Why there is no quote, in a sentence; null when there is one. */
  quoteNote: string | null;
  /** The chain's own coin, in which the quote's network fee is paid (absent on reviews kept before it was). */
  feeSymbol?: string;
};

/** A swap quote as the console keeps and shows it (the service's figures, unchanged). */
export type SwapQuoteView = {
  rate: string;
  toAmount: string;
  minAmount: string;
  /** Percent. */
  slippage: string;
  networkFee: string;
  networkFeeUsd: string | null;
  expiresAt: string;
};

/** A quote asked again at submission because the approved one had expired: what changed. */
export type SwapRequote = {
  before: SwapQuoteView;
  after: SwapQuoteView;
  /** `after.toAmount - before.toAmount`, exact, in the asset received (negative when it fell). */
  difference: string;
};

export type SwapResult = {
  kind: 'swap';
  transactionId: string;
  rate: string | null;
  toAmount: string | null;
  toAsset: { symbol: string; name: string | null; address: string | null } | null;
  message: string;
  /** Set when the approved quote had expired and the service was asked again before sending. */
  requote?: SwapRequote | null;
};

/** The service's quote now beside the approved one (what an approver checks before approving). */
export type SwapQuoteComparison = {
  before: SwapQuoteView | null;
  after: SwapQuoteView;
  /** `after.toAmount - before.toAmount`; null without an approved quote to compare with. */
  difference: string | null;
  /** Whether the fresh quote keeps the approved minimum; null without an approved quote. */
  holds: boolean | null;
};

/** "no change", "+0.4 USDT" or "−0.4 USDT" for an exact difference computed on the server. */
export function quoteDifferenceWords(difference: string, format: (amount: string) => string): string {
  if (/^-?0(\.0*)?$/.test(difference)) return 'no change';
  return difference.startsWith('-') ? `−${format(difference.slice(1))}` : `+${format(difference)}`;
}
