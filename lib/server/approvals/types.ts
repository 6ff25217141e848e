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
