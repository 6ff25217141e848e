// A withdrawal's review and a sign-only withdrawal's result, as the browser sees them.

import type { ReviewBookEntry } from './address-book';
import type { LimitCheck } from './limits';
import type { ReviewSource, ReviewWallet } from './types';

export type ReviewItem = {
  index: number;
  address: string;
  amount: string;
  symbol: string;
  assetId: string;
  usd: number | null;
  networkFee: string | null;
  networkFeeUsd: number | null;
  /** Upstream reference: the person's own when they typed one, else derived from the request id. */
  reference: string;
  /** The person's own reference, if any (then also the upstream reference). */
  clientReference: string | null;
  note: string | null;
  metadata: Record<string, unknown> | null;
  aml: { status: string; provider: string; message: string } | null;
  /** The address book entry of the recipient; null: outside the book (a warning says so). */
  book?: ReviewBookEntry | null;
  warnings: string[];
};

/**
 * The reference a review shows for an item: the person's own, else the upstream one; a preview has neither
 * when nothing was typed (the request's own is derived when it is created).
 */
export function reviewItemReference(item: Pick<ReviewItem, 'reference' | 'clientReference'>): string {
  return item.clientReference || item.reference || 'assigned on creation';
}

/**
 * Who pays a withdrawal's network fee: the source itself, or the master wallet for a child address with gasless
 * withdrawals on (Blockradar's `enableGaslessWithdraw`).
 */
export type NetworkFeePayer = 'source' | 'masterWallet';

/**
 * The review's answer to "who pays the network fee?" for a withdrawal from a child address, where it is a
 * question; null for the master wallet, which always pays its own.
 */
export function networkFeePayerText(review: Pick<WithdrawalReview, 'source' | 'fee'>): string | null {
  if (review.source.kind === 'master') return null;
  if (review.fee.paidBy === 'masterWallet')
    return 'Master wallet (gasless withdrawals are on for this address)';
  if (review.fee.paidBy === 'source') return `This address, from its own ${review.fee.symbol}`;
  return null;
}

export type WithdrawalReview = {
  kind: 'withdraw' | 'withdrawSign';
  /** The spending limits that apply and what each leaves after this request (absent: no limit applies). */
  limits?: LimitCheck;
  wallet: ReviewWallet;
  source: ReviewSource;
  items: ReviewItem[];
  totals: { usd: number | null; byAsset: Array<{ symbol: string; amount: string }> };
  fee: {
    symbol: string;
    total: string | null;
    totalUsd: number | null;
    error: string | null;
    /** Who pays the network fee; absent from reviews that did not record it. */
    paidBy?: NetworkFeePayer;
  };
  nativeBalance: { symbol: string; before: string | null; after: string | null; beforeUsd: number | null };
  estimatedArrivalSeconds: number | null;
  warnings: string[];
  builtAt: string;
};

/** A signed raw transaction decoded for people. */
export type DecodedSignedTransaction = {
  type: string;
  chainId: number | null;
  nonce: number | null;
  gas: string | null;
  maxFeePerGas: string | null;
  maxPriorityFeePerGas: string | null;
  gasPrice: string | null;
  /** The address the transaction is sent to: the recipient, or the token contract of a token transfer. */
  to: string | null;
  /** Native value in the chain's coin. */
  value: string;
  tokenTransfer: { token: string; recipient: string; amount: string; rawAmount: string } | null;
  /** Set when the bytes could not be parsed. */
  error?: string;
};

export type SignOnlyResult = {
  signed: Array<{
    index: number;
    transactionId: string;
    hash: string;
    signedTransaction: string;
    decoded: DecodedSignedTransaction;
  }>;
  errors: Array<{ index: number; message: string }>;
  message?: string;
};
