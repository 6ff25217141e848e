import 'server-only';
import type {
  AddressConfigurations,
  AddressRow,
  AssetRow,
  BlockchainRow,
  Catalog,
  WalletRow,
} from './context';
import type {
  sandboxBeneficiaries,
  sandboxRules,
  sandboxTransactions,
  sandboxWebhookLogs,
} from './db/schema';

// Row to API shape, field for field as the spec's Resources section lists them.

type TransactionRow = typeof sandboxTransactions.$inferSelect;
type RuleRow = typeof sandboxRules.$inferSelect;
type BeneficiaryRow = typeof sandboxBeneficiaries.$inferSelect;
type WebhookRow = typeof sandboxWebhookLogs.$inferSelect;

const iso = (d: Date) => d.toISOString();

export function blockchainApi(chain: BlockchainRow) {
  return {
    id: chain.id,
    name: chain.name,
    slug: chain.slug,
    symbol: chain.symbol,
    derivationPath: chain.derivationPath,
    isActive: true,
    isEvmCompatible: chain.isEvmCompatible,
    isL2: chain.isL2,
    tokenStandard: chain.tokenStandard,
    logoUrl: chain.logoUrl,
    createdAt: iso(chain.createdAt),
    updatedAt: iso(chain.updatedAt),
  };
}

export function assetApi(catalog: Catalog, asset: AssetRow, withBlockchain = true) {
  const chain = catalog.blockchains.get(asset.blockchainId);
  return {
    id: asset.id,
    address: asset.address,
    name: asset.name,
    symbol: asset.symbol,
    decimals: asset.decimals,
    network: asset.network,
    isActive: asset.isActive,
    standard: asset.standard,
    logoUrl: asset.logoUrl,
    ...(withBlockchain && chain ? { blockchain: blockchainApi(chain) } : {}),
    createdAt: iso(asset.createdAt),
    updatedAt: iso(asset.updatedAt),
  };
}

export function addressApi(catalog: Catalog, row: AddressRow, privateKey?: string) {
  const chain = catalog.blockchains.get(catalog.wallets.get(row.walletId)?.blockchainId ?? '');
  return {
    id: row.id,
    address: row.address,
    name: row.name,
    type: row.type,
    network: row.network,
    isActive: row.isActive,
    derivationPath: row.derivationPath,
    metadata: (row.metadata as Record<string, unknown> | null) ?? null,
    configurations: row.configurations as AddressConfigurations,
    ...(chain ? { blockchain: blockchainApi(chain) } : {}),
    ...(privateKey ? { privateKey } : {}),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** The reduced wallet embedded in transactions ("may be partial"). */
function walletRefApi(wallet: WalletRow) {
  return {
    id: wallet.id,
    name: wallet.name,
    address: wallet.address,
    network: wallet.network,
    status: wallet.status,
    isActive: wallet.isActive,
  };
}

export function ruleApi(row: RuleRow, withId = true) {
  return {
    ...(withId ? { id: row.id } : {}),
    name: row.name,
    isActive: row.isActive,
    order: row.order,
    slippageTolerance: row.slippageTolerance,
    source: row.source as { assets: string[]; blockchain: string; minAmount: string; maxAmount: string },
    destination: row.destination as { address: string; asset: string; blockchain: string },
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function beneficiaryApi(row: BeneficiaryRow) {
  return {
    id: row.id,
    address: row.address,
    name: row.name,
    isActive: row.isActive,
    isDefault: row.isDefault,
    isSettlement: row.isSettlement,
    isWhitelisted: row.isWhitelisted,
    settlementFrequency: row.settlementFrequency,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    deletedAt: row.deletedAt ? iso(row.deletedAt) : null,
  };
}

/**
 * `feeMetadata` of a gasless child withdrawal: the master wallet pays the network fee (`gasFee`), not the
 * child address that sends the asset. The spec leaves the shape of `feeMetadata` open.
 */
interface GasSponsorship {
  gasless: true;
  feePaidBy: 'MASTER_WALLET';
  feePayerAddress: string;
}

/** Fields of a Transaction kept in the `body` column (everything not needed for filtering). */
export interface TransactionBody {
  confirmed: boolean;
  amountPaid: string | null;
  amountUSD: string | null;
  currency: string | null;
  rate: string | null;
  rateUSD: string | null;
  toAmount: string | null;
  toCurrency: string | null;
  toAssetId: string | null;
  toWalletId: string | null;
  fee: null;
  feeHash: null;
  feeMetadata: GasSponsorship | null;
  gasFee: string | null;
  gasPrice: string | null;
  gasUsed: number | string | null;
  blockHash: string | null;
  chainId: number | null;
  network: string;
  note: string | null;
  reason: string | null;
  metadata: Record<string, unknown> | null;
  tokenAddress: string | null;
  createdChannel: string;
  amlScreening: Record<string, unknown> | null;
  assetSwept: boolean | null;
  assetSweptAmount: string | null;
  assetSweptGasFee: string | null;
  assetSweptAt: string | null;
  assetSweptHash: string | null;
  assetSweptRecipientAddress: string | null;
  assetSweptSenderAddress: string | null;
  assetSweptResponse: unknown;
  response: unknown;
  signedTransaction: string | { r: string; s: string; signature: string; v: number } | null;
  beneficiary: Record<string, unknown> | null;
}

export function emptyBody(network: string, chainId: number): TransactionBody {
  return {
    confirmed: false,
    amountPaid: null,
    amountUSD: null,
    currency: 'USD',
    rate: null,
    rateUSD: null,
    toAmount: null,
    toCurrency: null,
    toAssetId: null,
    toWalletId: null,
    fee: null,
    feeHash: null,
    feeMetadata: null,
    gasFee: null,
    gasPrice: null,
    gasUsed: null,
    blockHash: null,
    chainId,
    network,
    note: null,
    reason: null,
    metadata: null,
    tokenAddress: null,
    createdChannel: 'api',
    amlScreening: null,
    assetSwept: null,
    assetSweptAmount: null,
    assetSweptGasFee: null,
    assetSweptAt: null,
    assetSweptHash: null,
    assetSweptRecipientAddress: null,
    assetSweptSenderAddress: null,
    assetSweptResponse: null,
    response: null,
    signedTransaction: null,
    beneficiary: null,
  };
}

export function transactionApi(catalog: Catalog, row: TransactionRow) {
  const { toAssetId, toWalletId, ...body } = row.body as TransactionBody;
  const wallet = catalog.wallets.get(row.walletId);
  const asset = row.assetId ? catalog.assets.get(row.assetId) : undefined;
  const toAsset = toAssetId ? catalog.assets.get(toAssetId) : undefined;
  const toWallet = toWalletId ? catalog.wallets.get(toWalletId) : undefined;
  const chain = wallet ? catalog.blockchains.get(wallet.blockchainId) : undefined;
  const toChain = toAsset ? catalog.blockchains.get(toAsset.blockchainId) : undefined;
  const address = row.addressId ? catalog.addresses.get(row.addressId) : undefined;
  return {
    id: row.id,
    reference: row.reference,
    hash: row.hash,
    type: row.type,
    status: row.status,
    confirmed: body.confirmed,
    confirmations: row.confirmations,
    amount: row.amount,
    amountPaid: body.amountPaid,
    amountUSD: body.amountUSD,
    currency: body.currency,
    rate: body.rate,
    rateUSD: body.rateUSD,
    toAmount: body.toAmount,
    toCurrency: body.toCurrency,
    fee: body.fee,
    feeHash: body.feeHash,
    feeMetadata: body.feeMetadata,
    gasFee: body.gasFee,
    gasPrice: body.gasPrice,
    gasUsed: body.gasUsed,
    blockHash: body.blockHash,
    blockNumber: row.blockNumber,
    chainId: body.chainId,
    network: body.network,
    note: body.note,
    reason: body.reason,
    metadata: body.metadata,
    recipientAddress: row.recipientAddress,
    senderAddress: row.senderAddress,
    tokenAddress: body.tokenAddress,
    createdChannel: body.createdChannel,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    amlScreening: body.amlScreening,
    asset: asset ? assetApi(catalog, asset, false) : null,
    toAsset: toAsset ? assetApi(catalog, toAsset, false) : null,
    blockchain: chain ? blockchainApi(chain) : null,
    toBlockchain: toChain ? blockchainApi(toChain) : null,
    wallet: wallet ? walletRefApi(wallet) : { id: row.walletId },
    toWallet: toWallet ? walletRefApi(toWallet) : null,
    address: address ? addressApi(catalog, address) : null,
    addressId: row.addressId,
    assetSwept: body.assetSwept,
    assetSweptAmount: body.assetSweptAmount,
    assetSweptGasFee: body.assetSweptGasFee,
    assetSweptAt: body.assetSweptAt,
    assetSweptHash: body.assetSweptHash,
    assetSweptRecipientAddress: body.assetSweptRecipientAddress,
    assetSweptSenderAddress: body.assetSweptSenderAddress,
    assetSweptResponse: body.assetSweptResponse,
    response: body.response,
    signedTransaction: body.signedTransaction,
    beneficiary: body.beneficiary,
  };
}

type TransactionApi = ReturnType<typeof transactionApi>;

/**
 * Drizzle's jsonb reader JSON-parses a stored string again, so a receiver's JSON acknowledgement (e.g.
 * `{"received":true}`) would come back as an object; the log keeps the receiver's text as text.
 */
function deliveryResponse(value: unknown): string | { status: number; text: string } | null {
  if (value === null || typeof value === 'string') return value;
  const r = value as Record<string, unknown>;
  if (typeof r.status === 'number' && typeof r.text === 'string') return { status: r.status, text: r.text };
  return JSON.stringify(value);
}

export function webhookLogApi(row: WebhookRow) {
  return {
    id: row.id,
    event: row.event,
    url: row.url,
    attempts: row.attempts,
    status: row.status,
    response: deliveryResponse(row.response),
    reference: row.transactionId,
    payload: row.payload as TransactionApi,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}
