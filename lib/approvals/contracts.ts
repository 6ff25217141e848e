// Shapes of contract-call reviews and results as the browser sees them (JSON from the server).
import type { LimitCheck } from './limits';
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
  /**
   * The call decoded as an ERC-20 call (by its selector, whatever its ABI names things); null when it is
   * none the console decodes. Absent on reviews made before calls were decoded.
   */
  decoded?: ContractDecodedCall | null;
  /** Native coin sent with the call, priced like a native withdrawal. */
  native?: { amount: string; symbol: string; usd: number | null } | null;
  /** USD value of the call (tokens and native coin); null when the console cannot price it. */
  usd?: number | null;
  /**
   * Why the console could not decode or price the call, in words ("unknown function 0x12345678"): such a
   * call needs the most approvals the policy asks. Null when it could.
   */
  undecodable?: string | null;
  /** What the call moves or allows, as the spending limits count it. */
  movements?: ContractMovement[];
};

export type ContractDecodedCall = {
  function: 'transfer' | 'transferFrom' | 'approve' | 'increaseAllowance';
  /** `transfer(address,uint256)`. */
  signature: string;
  /** The token's symbol, when the contract is one of the wallet's assets or reports its units. */
  token: string | null;
  /** transferFrom's owner, checksummed. */
  from: string | null;
  /** Recipient (transfer, transferFrom) or spender (approve, increaseAllowance), checksummed. */
  to: string;
  role: 'recipient' | 'spender';
  /** "1,000,000 USDC" (or "unlimited USDC"); null when the token's decimals are unknown. */
  amount: string | null;
  /** "1,000,000,000,000 base units". */
  base: string;
  usd: number | null;
  /** An allowance of the largest uint256. */
  unlimited: boolean;
};

/**
 * One movement of a contract call: an amount of an asset to a destination (the recipient or spender; the
 * contract itself for native coin and for calls the console cannot read). `amount` is a plain decimal in
 * the asset's units, `usd` to the cent or null when unknown.
 */
export type ContractMovement = { destination: string; symbol: string; amount: string; usd: string | null };

export type ContractReview = {
  kind: 'contractWrite' | 'contractSign';
  wallet: ReviewWallet;
  source: ReviewAddress;
  calls: ContractReviewCall[];
  /** USD value of every call together; null when any call cannot be priced. Absent on older reviews. */
  totalUsd?: number | null;
  fee: { symbol: string; total: string | null; error: string | null };
  warnings: string[];
  builtAt: string;
  /** The spending limits the request falls under, added by the engine. */
  limits?: LimitCheck;
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
