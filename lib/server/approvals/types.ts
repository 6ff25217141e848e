import 'server-only';
// What an operation type (withdraw, sign-only withdraw; later swap, contract write and sign, typed-data sign)
// gives the engine: a payload schema, a review, a USD amount, a permission pair and a submit function.
import type { z } from 'zod';
import type { CustodyClient } from '@/lib/custody';
import type { ConsoleDb } from '@/lib/db/schema';
import type { Action } from '../permissions';

export interface SourceBalance {
  /** Wallet-asset id (what withdrawal items take as `id`). */
  assetId: string;
  symbol: string;
  decimals: number;
  isNative: boolean;
  balance: string;
  /** USD per unit, when the balance gives one. */
  priceUsd: string | null;
}

export interface ReviewContext {
  db: ConsoleDb;
  client: CustodyClient;
  walletId: string;
  requestId: string;
  /** Upstream reference of each item, in order. */
  references: string[];
  /** Balances of the master wallet (no addressId) or of a child address. */
  balances(addressId?: string): Promise<SourceBalance[]>;
}

export interface SubmitContext {
  client: CustodyClient;
  walletId: string;
  requestId: string;
  references: string[];
  /** Two-factor code typed by the approver who submits (#16, #17): used once, never stored or logged. */
  twoFactorCode?: string;
}

export interface SubmittedItem {
  index: number;
  transactionId?: string | null;
  hash?: string | null;
  status?: string | null;
  confirmations?: number | null;
  error?: string | null;
}

export interface SubmitOutcome {
  items: SubmittedItem[];
  /** Operations that finish on answer (signing): the request ends here instead of following transactions. */
  final?: 'SUCCESS' | 'FAILED';
  result?: Record<string, unknown>;
}

export interface BuiltReview {
  review: Record<string, unknown>;
  summary: string;
  amountUsd: number | null;
}

export interface OperationType<P = unknown> {
  key: string;
  /** For people: "Withdrawal", "Sign-only withdrawal". */
  label: string;
  permissions: { request: Action; approve: Action };
  /** The submitting approver types the custody service's two-factor code (contract write and sign). */
  requiresTwoFactor?: boolean;
  payloadSchema: z.ZodType<P>;
  itemCount(payload: P): number;
  /** The child address the operation acts from, if any. */
  addressIdOf(payload: P): string | null;
  buildReview(payload: P, context: ReviewContext): Promise<BuiltReview>;
  /** The requester's own reference of each item, where the form takes one: it becomes the upstream reference. */
  clientReferences?(payload: P): Array<string | undefined>;
  /** Upstream transactions an item names from the start (a retry names the transaction it retries). */
  transactionIdsOf?(payload: P): Array<string | null>;
  /** The form field a reference error belongs to (default `items.<i>.reference`). */
  referenceField?(index: number): string;
  /**
   * Whether an upstream transaction found for an item shows the operation was executed. Default: it exists.
   * A retry's transaction exists before the retry; only a change from FAILED shows the retry ran.
   */
  executed?(tx: { status: string }): boolean;
  /** Sends the operation once. Throws CustodyError on failure; the engine decides what it means. */
  submit(payload: P, context: SubmitContext): Promise<SubmitOutcome>;
}
