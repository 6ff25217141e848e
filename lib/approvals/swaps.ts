// Swap requests as the browser sees them: the review stored with the request and the submission's result.
import type { LimitCheck } from './limits';

export type SwapReview = {
  kind: 'swap';
  /** The spending limits that apply and what each leaves after this request (absent: no limit applies). */
  limits?: LimitCheck;
  wallet: { id: string; name: string; address: string; blockchain: string; slug: string; network: string };
  source: { addressId: string; address: string; name: string | null };
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
};

export type SwapResult = {
  kind: 'swap';
  transactionId: string;
  rate: string | null;
  toAmount: string | null;
  toAsset: { symbol: string; name: string | null; address: string | null } | null;
  message: string;
};
