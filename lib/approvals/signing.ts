// Typed-data signing requests as the browser sees them: the review and the verified signature.

import type { TypedDataDescription, TypedDataDocument } from '@/lib/validation/typed-data';
import type { ReviewAddress, ReviewWallet } from './types';

export type TypedDataReview = {
  kind: 'typedDataSign';
  wallet: ReviewWallet;
  signer: ReviewAddress;
  document: TypedDataDocument;
  /** EIP-712 hash of what will be signed. */
  hash: string;
  description: TypedDataDescription;
  /** What a permit allows or an authorization moves, in USD ("1234.50"); null when it cannot be priced. */
  valueUsd?: string | null;
  warnings: string[];
  builtAt: string;
};

export type TypedDataResult = {
  kind: 'typedDataSign';
  transactionId: string;
  r: string;
  s: string;
  v: number;
  signature: string;
  /** Address recovered from the signature over the typed data, by the console. */
  recoveredAddress: string | null;
  expectedAddress: string;
  verified: boolean;
  error: string | null;
};
