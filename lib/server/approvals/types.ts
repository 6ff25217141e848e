import 'server-only';
// What the engine gives an operation kind to review and submit with. The kinds themselves are described by
// operations/types.ts.
import type { CustodyClient } from '@/lib/custody';
import type { ConsoleDb } from '@/lib/db/schema';

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
  /** The most approvals the kind's policy can ask (`highestApprovals` in policy.ts): for what cannot be valued. */
  highestApprovals(): Promise<number>;
  /** The engine's clock when the review is built (cooling-off ages are counted to it). */
  now: Date;
}

export interface SubmitContext {
  client: CustodyClient;
  walletId: string;
  requestId: string;
  references: string[];
  /** The review stored at creation, as every approver saw it. */
  review: Record<string, unknown>;
  /** Two-factor code typed by the approver who submits (#16, #17): used once, never stored or logged. */
  twoFactorCode?: string;
  /** What earlier attempts of this request left as its result (a batched kind's progress); null at first. */
  previous: unknown;
  /**
   * Stores a batched kind's progress and the transactions it learnt at once, before the next call: a later
   * lost answer or refusal keeps what the service already accepted.
   */
  saveProgress(result: unknown, items: SubmittedItem[]): Promise<void>;
  /** Looks one item's reference up at the service (what a lost answer may have left behind). */
  findItem(index: number): Promise<{ found: SubmittedItem | null; conclusive: boolean }>;
  /**
   * Opens a secret the payload carries sealed (`sealRequestSecret`, bound to `binding`): a private key given
   * with a whitelisting reaches the service once, and is never stored in clear.
   */
  openSealed(sealed: string, binding: string): string;
}

export interface SubmittedItem {
  index: number;
  transactionId?: string | null;
  hash?: string | null;
  status?: string | null;
  confirmations?: number | null;
  error?: string | null;
}
