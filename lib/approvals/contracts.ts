// Shapes of contract-call reviews and results as the browser sees them (JSON from the server).
import type { ReviewAddress, ReviewWallet } from './types';

export type ContractReviewCall = {
  index: number;
  contract: string;
  /** Symbol of the wallet asset at this contract address, when it is one. */
  token: string | null;
  method: string;
  /**
   * `value` is what is sent. `amount`, for an ERC-20 amount of a token whose decimals are known, reads it
   * both ways: `{ units: '1.5 USDC', base: '1,500,000 base units' }`.
   */
  args: Array<{ name: string; type: string; value: string; amount?: { units: string; base: string } }>;
  networkFee: string | null;
  reference: string;
  warnings: string[];
};

export type ContractReview = {
  kind: 'contractWrite' | 'contractSign';
  wallet: ReviewWallet;
  source: ReviewAddress;
  calls: ContractReviewCall[];
  fee: { symbol: string; total: string | null; error: string | null };
  warnings: string[];
  builtAt: string;
};

export type DecodedContractTransaction = {
  to: string | null;
  value: string;
  nonce: number | null;
  gas: string | null;
  chainId: number | null;
  method: string | null;
  args: string[];
  data: string | null;
  error?: string;
};

export type ContractResult = {
  kind: 'contractWrite' | 'contractSign';
  success: Array<{
    index: number;
    method: string;
    transactionId?: string | null;
    hash?: string | null;
    status?: string | null;
    signedTransaction?: string;
    decoded?: DecodedContractTransaction;
  }>;
  errors: Array<{ index: number; message: string }>;
  message?: string;
};

/** What the read and fee actions give back. */
export interface ReadOutcome {
  results: Array<{ index: number; method: string; value: string }>;
  errors: Array<{ index: number; message: string }>;
  message: string;
}

export interface FeeOutcome {
  fees: Array<{ index: number; method: string; fee: string; networkFeeUsd: string | null }>;
  total: string | null;
  errors: Array<{ index: number; message: string }>;
  message: string;
}
