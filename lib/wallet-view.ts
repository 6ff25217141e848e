// Wallet data as the browser sees it: produced on the server by lib/server/redaction.ts and
// lib/server/wallet-views.ts, typed here so client components can use the shapes without importing
// server code.
import type {
  Address,
  Blockchain,
  PageMeta,
  Transaction,
  WalletAnalytics,
  WalletAsset,
  WalletConfigurations,
} from '@/lib/custody/schemas';

export interface RedactedApiCredential {
  id: string;
  type: string;
  status: string;
  isActive: boolean;
  /** Masked: "••••" and the last four characters. */
  key: string;
  webhookUrl: string | null;
  createdAt: string;
  updatedAt: string;
  revokedAt: string | null;
}

/** A wallet (#4) with business reduced to id and name, the key masked and no seed phrase anywhere. */
export interface RedactedWallet {
  id: string;
  address: string;
  name: string;
  description: string;
  network: string;
  status: string;
  isActive: boolean;
  derivationPath: string;
  blockchain: Blockchain;
  assets: WalletAsset[];
  analytics: WalletAnalytics;
  configurations: WalletConfigurations | null;
  business: { id: string; name: string } | null;
  apiCredential: RedactedApiCredential | null;
  createdAt: string;
  updatedAt: string;
}

export interface AssetBalance {
  /** The wallet-asset entry id (what withdrawals and the sandbox's deposits take as the asset id). */
  walletAssetId: string;
  assetId: string;
  symbol: string;
  name: string;
  decimals: number;
  isActive: boolean;
  contractAddress: string;
  /** Decimal string in the asset's units; null when the service does not tell per-asset balances. */
  balance: string | null;
  usd: number | null;
}

export interface WalletView {
  wallet: RedactedWallet;
  balances: AssetBalance[];
  /** 'balances': per asset from the balances read; 'analytics': only #4's totals are known. */
  balancesSource: 'balances' | 'analytics';
}

export interface AddressPage {
  data: Address[];
  meta: PageMeta;
  /**
   * 'known': the service lists no addresses (no extension); these are the child addresses the console has
   * seen in its own requests and in webhooks, each read with #5.
   */
  source?: 'service' | 'known';
}

/** One asset held by a child address, from the service's balances extension. */
interface AddressAssetBalance {
  walletAssetId: string;
  symbol: string;
  name: string | null;
  decimals: number;
  /** Decimal string in the asset's units. */
  balance: string;
  usd: number | null;
}

/** A child address's balances, or the fact that the service does not report them (unknown, not zero). */
export type AddressBalances = { available: true; balances: AddressAssetBalance[] } | { available: false };

/** One page of a child address's transactions (#3), newest first unless asked otherwise. */
export interface AddressTransactionPage {
  data: Transaction[];
  meta: PageMeta;
}

type Picked<T, K extends keyof NonNullable<T>> = Pick<NonNullable<T>, K> | null;

/**
 * A transaction as the transactions table and its drawer show it: every field they render, nested objects cut to
 * the fields shown (a whole `Transaction` is one too). The table's page carries these, not the service's
 * records: a record was about 3.5 kB, half of it nested objects (asset, chain, wallet, address) nobody saw.
 */
export type TransactionRow = Pick<
  Transaction,
  | 'id'
  | 'reference'
  | 'hash'
  | 'type'
  | 'status'
  | 'confirmed'
  | 'confirmations'
  | 'amount'
  | 'amountPaid'
  | 'amountUSD'
  | 'currency'
  | 'rate'
  | 'rateUSD'
  | 'toAmount'
  | 'toCurrency'
  | 'feeMetadata'
  | 'gasFee'
  | 'gasPrice'
  | 'gasUsed'
  | 'blockHash'
  | 'blockNumber'
  | 'chainId'
  | 'network'
  | 'note'
  | 'reason'
  | 'metadata'
  | 'recipientAddress'
  | 'senderAddress'
  | 'tokenAddress'
  | 'createdChannel'
  | 'createdAt'
  | 'updatedAt'
  | 'amlScreening'
  | 'addressId'
  | 'assetSwept'
  | 'assetSweptAmount'
  | 'assetSweptGasFee'
  | 'assetSweptAt'
  | 'assetSweptHash'
  | 'assetSweptRecipientAddress'
> & {
  asset: Picked<Transaction['asset'], 'symbol' | 'decimals'>;
  toAsset: Picked<Transaction['toAsset'], 'symbol' | 'decimals'>;
  blockchain: Picked<Transaction['blockchain'], 'name' | 'slug' | 'symbol'>;
  address: Picked<Transaction['address'], 'name'>;
  beneficiary: { name?: unknown } | null;
};
