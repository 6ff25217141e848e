// The custody API's resources (shared/spec/custody-api.md) as zod schemas. No `server-only`: forms import the
// types and request schemas from here (the enumerations alone are in `constants.ts`, without zod).
import { z } from 'zod';
import {
  ADDRESS_TYPES,
  SETTLEMENT_ORDERS,
  TRANSACTION_FILTER_TYPES,
  TRANSACTION_SORT_FIELDS,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
} from './constants';

export type { SortOrder, TransactionFilterType, TransactionSortField, TransactionStatus } from './constants';
export { TRANSACTION_FILTER_TYPES, TRANSACTION_SORT_FIELDS };

const NETWORKS = ['testnet', 'mainnet'] as const;
const WEBHOOK_LOG_STATUSES = ['success', 'failed'] as const;
/** Limits: contract calls and withdraw network-fee estimates take 1 to 20 operations. */
const MAX_BATCH_SIZE = 20;

const DECIMAL = /^-?\d+(\.\d+)?$/;
const POSITIVE_DECIMAL = /^\d+(\.\d+)?$/;
const HEX = /^0x[0-9a-fA-F]*$/;

export type SchemaMode = 'loose' | 'strict';

// Every string field is typed as plain `string` in both modes, so the strict variants share the TS types
// inferred from the loose ones.
type Str = z.ZodType<string, string>;

/**
 * Builds the response schemas.
 *
 * - `loose` (default, used by the client): unknown keys pass through, so a field the upstream adds does not
 *   break the console; enumerated strings accept any value, because the spec mostly lists values "seen".
 * - `strict` (contract tests): unknown keys are rejected and enumerations, UUIDs, ISO timestamps, decimal
 *   and hex strings are checked, so a service that drifts from the spec's shapes is caught.
 *
 * In both modes, objects whose shape the spec leaves open stay open: `metadata`, `feeMetadata`, `response`,
 * `assetSweptResponse`, `beneficiary` on a transaction, `business` (it also carries seed phrases under names
 * the spec does not give), `business.configurations`, `business.user` (profile fields not listed), the
 * webhook log `response` object and batch `errors` items.
 */
function buildSchemas(mode: SchemaMode) {
  const strict = mode === 'strict';

  // What `z.strictObject` and `z.looseObject` build, as one type: unknown keys are refused or kept.
  const obj = <T extends z.core.$ZodShape>(shape: T) =>
    z.object(shape).catchall(strict ? z.never() : z.unknown());
  const open = z.record(z.string(), z.unknown());
  const openWith = <T extends z.core.$ZodShape>(shape: T) => z.looseObject(shape);

  const uuid: Str = strict ? z.guid() : z.string();
  const timestamp: Str = strict ? z.iso.datetime() : z.string();
  const decimal: Str = strict ? z.string().regex(DECIMAL, 'Expected a decimal string') : z.string();
  const hex: Str = strict ? z.string().regex(HEX, 'Expected a 0x-prefixed hex string') : z.string();
  const oneOf = (values: readonly [string, ...string[]]): Str => (strict ? z.enum(values) : z.string());
  const int = z.number().int();

  const pageMeta = obj({
    currentPage: int,
    itemCount: int,
    itemsPerPage: int,
    totalItems: int,
    totalPages: int,
  });

  const envelope = <T extends z.ZodType>(data: T) =>
    obj({ data, message: z.string(), statusCode: int, meta: pageMeta.optional() });
  const pagedEnvelope = <T extends z.ZodType>(item: T) =>
    obj({ data: z.array(item), message: z.string(), statusCode: int, meta: pageMeta });

  const blockchain = obj({
    id: uuid,
    name: z.string(),
    slug: z.string(),
    symbol: z.string(),
    derivationPath: z.string(),
    isActive: z.boolean(),
    isEvmCompatible: z.boolean(),
    // Spec: absent in some responses.
    isL2: z.boolean().optional(),
    tokenStandard: z.string().nullable(),
    logoUrl: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
  });

  const asset = obj({
    id: uuid,
    address: z.string(),
    name: z.string(),
    symbol: z.string(),
    decimals: int,
    network: oneOf(NETWORKS),
    isActive: z.boolean(),
    standard: z.string().nullable(),
    logoUrl: z.string(),
    // Spec: present in some responses.
    blockchain: blockchain.optional(),
    createdAt: timestamp,
    updatedAt: timestamp,
  });

  // Get Assets (Miscellaneous): every asset carries its blockchain.
  const supportedAsset = asset.extend({ blockchain });

  // Get Rates (Miscellaneous): symbol to currency to rate, e.g. {USDC: {USD: 0.9997}}.
  const assetRates = z.record(z.string(), z.record(z.string(), z.number()));

  const aml = obj({ message: z.string(), provider: z.string(), status: z.string() });

  const addressConfigurations = obj({
    aml,
    disableAutoSweep: z.boolean(),
    enableGaslessWithdraw: z.boolean(),
    showPrivateKey: z.boolean(),
    // Spec: in some responses.
    isActive: z.boolean().optional(),
  });

  const address = obj({
    id: uuid,
    address: z.string(),
    name: z.string().nullable(),
    type: oneOf(ADDRESS_TYPES),
    network: oneOf(NETWORKS),
    isActive: z.boolean(),
    derivationPath: z.string().nullable(),
    metadata: open.nullable(),
    configurations: addressConfigurations,
    blockchain,
    createdAt: timestamp,
    updatedAt: timestamp,
  });

  const ruleSource = obj({
    assets: z.array(z.string()),
    blockchain: z.string(),
    minAmount: decimal,
    maxAmount: decimal,
  });
  const ruleDestination = obj({ address: z.string(), asset: z.string(), blockchain: z.string() });

  /** Address-level rule (#10, #11): always has an id. */
  const autoSettlementRule = obj({
    id: uuid,
    name: z.string(),
    isActive: z.boolean(),
    order: oneOf(SETTLEMENT_ORDERS),
    slippageTolerance: decimal,
    source: ruleSource,
    destination: ruleDestination,
    createdAt: timestamp,
    updatedAt: timestamp,
  });
  // Spec: the rule's id is absent in the wallet-level read.
  const walletAutoSettlementRule = autoSettlementRule.extend({ id: uuid.optional() });

  const walletAutoSettlement = obj({
    isActive: z.boolean(),
    name: z.string(),
    rules: z.array(walletAutoSettlementRule),
  });

  const walletAsset = obj({
    id: uuid,
    asset,
    isActive: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  });

  const walletAnalytics = obj({
    currentBalance: z.number(),
    numberOfAssets: z.number(),
    unsweptBalance: z.number(),
  });

  const walletConfigurations = obj({
    addresses: obj({
      isActive: z.boolean(),
      // Fields of prefunding rules: not shown by the spec.
      prefunding: obj({ isActive: z.boolean(), rules: z.array(z.unknown()) }),
    }),
    autoSettlement: obj({ isActive: z.boolean(), rules: z.array(walletAutoSettlementRule) }),
  });

  const business = openWith({
    id: z.string(),
    name: z.string(),
    sector: z.string(),
    status: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
    configurations: openWith({
      billing: openWith({ ccEmails: z.array(z.string()), toEmails: z.array(z.string()) }).optional(),
      contact: openWith({ email: z.string() }).optional(),
      details: openWith({ description: z.string(), website: z.string() }).optional(),
      hideLogoUrlInResponse: z.boolean().optional(),
      useCustomWebhookSignatureHeader: z.boolean().optional(),
    }),
    user: openWith({
      emailVerified: z.boolean(),
      twoFactorAuthEnabled: z.boolean(),
      configurations: obj({ setNewPasswordRequired: z.boolean() }),
    }),
  });

  const apiCredential = obj({
    id: uuid,
    type: z.string(),
    status: z.string(),
    isActive: z.boolean(),
    // Secret: lib/server redacts it before anything leaves the server.
    key: z.string(),
    // Null when the wallet has no webhook receiver configured (not stated by the spec).
    webhookUrl: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    revokedAt: timestamp.nullable(),
  });

  const wallet = obj({
    id: uuid,
    address: z.string(),
    name: z.string(),
    description: z.string(),
    network: oneOf(NETWORKS),
    status: z.string(),
    isActive: z.boolean(),
    derivationPath: z.string(),
    blockchain,
    assets: z.array(walletAsset),
    analytics: walletAnalytics,
    configurations: walletConfigurations.nullable(),
    business,
    apiCredential,
    createdAt: timestamp,
    updatedAt: timestamp,
  });

  // Spec: a wallet inside a transaction may be partial (e.g. only `id`), and a webhook payload may carry a
  // reduced wallet/business sub-object.
  const walletRef = wallet.extend({ business: business.partial() }).partial();

  const typedDataSignature = obj({ r: hex, s: hex, signature: hex, v: int });

  const transaction = obj({
    id: uuid,
    reference: z.string(),
    hash: z.string().nullable(),
    type: oneOf(TRANSACTION_TYPES),
    status: oneOf(TRANSACTION_STATUSES),
    confirmed: z.boolean(),
    confirmations: int.nullable(),
    amount: decimal.nullable(),
    amountPaid: decimal.nullable(),
    amountUSD: decimal.nullable(),
    currency: z.string().nullable(),
    rate: decimal.nullable(),
    rateUSD: decimal.nullable(),
    toAmount: decimal.nullable(),
    toCurrency: z.string().nullable(),
    // Spec: nullable; shape beyond null not shown and not needed by any operation.
    fee: z.unknown(),
    feeHash: z.string().nullable(),
    feeMetadata: z.unknown(),
    gasFee: decimal.nullable(),
    gasPrice: decimal.nullable(),
    // Spec: seen both as a number and as a numeric string.
    gasUsed: z.union([z.number(), decimal]).nullable(),
    blockHash: z.string().nullable(),
    blockNumber: int.nullable(),
    chainId: int.nullable(),
    network: oneOf(NETWORKS),
    note: z.string().nullable(),
    reason: z.string().nullable(),
    metadata: open.nullable(),
    recipientAddress: z.string(),
    senderAddress: z.string(),
    tokenAddress: z.string().nullable(),
    // Spec: seen on signed typed-data records only.
    createdChannel: z.string().optional(),
    createdAt: timestamp,
    updatedAt: timestamp,
    // Spec: same shape as the AML object, may be an empty object.
    amlScreening: z.union([aml, obj({})]).nullable(),
    asset: asset.nullable(),
    toAsset: asset.nullable(),
    blockchain: blockchain.nullable(),
    toBlockchain: blockchain.nullable(),
    wallet: walletRef,
    toWallet: walletRef.nullable(),
    address: address.nullable(),
    addressId: z.string().nullable(),
    assetSwept: z.boolean().nullable(),
    assetSweptAmount: decimal.nullable(),
    assetSweptGasFee: decimal.nullable(),
    assetSweptAt: timestamp.nullable(),
    assetSweptHash: z.string().nullable(),
    assetSweptRecipientAddress: z.string().nullable(),
    assetSweptSenderAddress: z.string().nullable(),
    assetSweptResponse: z.unknown(),
    response: z.unknown(),
    // Only signing operations fill it: typed data gives the signature object, contract sign-only a hex string.
    signedTransaction: z.union([typedDataSignature, hex]).nullable().optional(),
    beneficiary: open.nullable(),
  });

  /**
   * #12/#13: the withdrawal's Transaction. A request of several items is answered with its first item's
   * Transaction (the spec); the sandbox adds `batch`, every item's Transaction in the order sent (an
   * extension: a service without it leaves the other items to be found by their references).
   */
  const withdrawal = transaction.extend({ batch: z.array(transaction).optional() });

  /** #17 single form: sign-only contract write. */
  const contractSignedTransaction = transaction.extend({ signedTransaction: hex });
  /** #21: typed-data signature record. */
  const typedDataSignedTransaction = transaction.extend({ signedTransaction: typedDataSignature });

  const beneficiary = obj({
    id: uuid,
    address: z.string(),
    name: z.string(),
    isActive: z.boolean(),
    isDefault: z.boolean(),
    isSettlement: z.boolean(),
    isWhitelisted: z.boolean(),
    settlementFrequency: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
    // Null until the beneficiary is deleted (#7 sets it).
    deletedAt: timestamp.nullable(),
  });

  /**
   * One asset's balance from the balances extension (`GET /v1/wallets/{walletId}/balances`, the child address
   * form, and the single-asset `.../balance?assetId=`). Not in the spec, so always tolerant: only what the
   * console reads is required.
   */
  const assetBalance = openWith({
    asset: openWith({
      id: z.string(),
      isActive: z.boolean().optional(),
      asset: openWith({
        id: z.string().optional(),
        symbol: z.string(),
        decimals: z.number(),
        name: z.string().nullable().optional(),
        address: z.string().nullable().optional(),
      }),
      // The wallet-asset entry's own timestamps, as the wallet read (#4) gives them; absent in older answers.
      createdAt: z.string().optional(),
      updatedAt: z.string().optional(),
    }),
    balance: z.union([z.string(), z.number()]).transform(String),
    convertedBalance: z.union([z.string(), z.number()]).nullable().optional(),
  });
  /** The balances extension's answer; its envelope may lack `statusCode`. */
  const assetBalancesEnvelope = openWith({
    data: z.array(assetBalance),
    message: z.string(),
    statusCode: int.optional(),
  });

  const webhookLog = obj({
    id: uuid,
    event: z.string(),
    url: z.string(),
    attempts: int,
    status: oneOf(WEBHOOK_LOG_STATUSES),
    // A plain acknowledgement on success, {status, text} for a failed delivery (Events, rule 2).
    response: z.union([z.string(), openWith({ status: int, text: z.string() })]),
    reference: z.string(),
    payload: transaction,
    createdAt: timestamp,
    updatedAt: timestamp,
  });

  /**
   * One failed operation of a batch. The spec leaves the shape open (batch rule 5); the shape we rely on,
   * loosely, is `{ index, message, ... }`.
   */
  const batchError = z.looseObject({ index: int.optional(), message: z.string().optional() });
  const batchErrors = z.array(batchError);

  /** #14: data of a sign-only withdrawal. */
  const withdrawSignResult = obj({
    success: z.array(obj({ id: z.string(), hash: z.string(), signedTransaction: hex })),
    errors: batchErrors,
  });

  /**
   * Extension: a swap quote from a child address or the master wallet (the service's price, minimum and
   * expiry). The asset ids are the ones the caller sent (wallet-asset ids, as a client holds them).
   */
  const swapQuote = obj({
    fromAssetId: z.string(),
    toAssetId: z.string(),
    amount: decimal,
    toAmount: decimal,
    minAmount: decimal,
    rate: decimal,
    slippage: decimal,
    // Price impact in percent and what it costs; Blockradar's quotes carry them, older answers may not.
    impact: decimal.optional(),
    impactInUSD: decimal.optional(),
    order: z.string().optional(),
    networkFee: decimal,
    networkFeeInUSD: decimal.optional(),
    // The native balance that pays the network fee, so a caller can tell the swap will not stall on gas.
    nativeBalance: decimal.optional(),
    nativeBalanceInUSD: decimal.optional(),
    transactionFee: decimal.optional(),
    estimatedArrivalTime: z.number().optional(),
    expiresAt: z.string(),
  });

  const withdrawNetworkFeeSingle = obj({
    nativeBalance: decimal,
    nativeBalanceInUSD: decimal,
    networkFee: decimal,
    // Beyond the spec's single form; Blockradar's answers carry them. Optional: older answers do not.
    networkFeeInUSD: decimal.optional(),
    estimatedArrivalTime: z.number().optional(),
  });
  const withdrawNetworkFeeBatch = obj({
    fees: z.array(
      obj({
        index: int,
        assetId: z.string(),
        address: z.string(),
        amount: decimal,
        networkFee: decimal,
        // Beyond the spec's batch item; optional, as in #19's items it is a given.
        networkFeeInUSD: decimal.optional(),
        transactionFee: decimal,
        estimatedArrivalTime: z.number(),
      }),
    ),
    totalNetworkFee: decimal,
    totalNetworkFeeInUSD: decimal,
    totalTransactionFee: decimal,
    nativeBalance: decimal,
    nativeBalanceInUSD: decimal,
    estimatedArrivalTime: z.number(),
    errors: batchErrors,
  });

  const contractWriteBatch = obj({
    success: z.array(
      obj({
        id: z.string(),
        hash: z.string().nullable(),
        status: oneOf(TRANSACTION_STATUSES),
        reference: z.string(),
      }),
    ),
    errors: batchErrors,
  });

  const contractSignBatch = obj({
    success: z.array(obj({ index: int, method: z.string(), signedTransaction: hex })),
    errors: batchErrors,
  });

  /** #18 single form: the call's result as a string. */
  const contractReadSingle = z.string();
  const contractReadBatch = obj({
    // The spec does not pin the type of a batch item's `data` (a single read answers a string).
    success: z.array(obj({ index: int, method: z.string(), data: z.unknown() })),
    errors: batchErrors,
  });

  const contractNetworkFeeSingle = obj({ balance: decimal, fee: decimal });
  const contractNetworkFeeBatch = obj({
    fees: z.array(
      obj({
        index: int,
        method: z.string(),
        fee: decimal,
        networkFee: decimal,
        networkFeeInUSD: decimal,
        nativeBalance: decimal,
        nativeBalanceInUSD: decimal,
        estimatedArrivalTime: z.number(),
        transactionFee: decimal,
      }),
    ),
    totalFee: decimal,
    estimatedArrivalTime: z.number(),
    errors: batchErrors,
  });

  return {
    mode,
    envelope,
    pagedEnvelope,
    pageMeta,
    blockchain,
    asset,
    supportedAsset,
    assetRates,
    aml,
    address,
    addressConfigurations,
    autoSettlementRule,
    walletAutoSettlementRule,
    walletAutoSettlement,
    walletAsset,
    walletAnalytics,
    walletConfigurations,
    business,
    apiCredential,
    wallet,
    walletRef,
    typedDataSignature,
    transaction,
    withdrawal,
    contractSignedTransaction,
    typedDataSignedTransaction,
    beneficiary,
    webhookLog,
    assetBalance,
    assetBalancesEnvelope,
    batchError,
    withdrawSignResult,
    swapQuote,
    withdrawNetworkFeeSingle,
    withdrawNetworkFeeBatch,
    withdrawNetworkFeeData: singleOrBatch(
      hasArray('fees'),
      withdrawNetworkFeeSingle,
      withdrawNetworkFeeBatch,
    ),
    contractWriteBatch,
    contractWriteData: singleOrBatch(hasArray('success'), transaction, contractWriteBatch),
    contractSignBatch,
    contractSignData: singleOrBatch(hasArray('success'), contractSignedTransaction, contractSignBatch),
    contractReadSingle,
    contractReadBatch,
    contractReadData: singleOrBatch(hasArray('success'), contractReadSingle, contractReadBatch),
    contractNetworkFeeSingle,
    contractNetworkFeeBatch,
    contractNetworkFeeData: singleOrBatch(
      hasArray('fees'),
      contractNetworkFeeSingle,
      contractNetworkFeeBatch,
    ),
  };
}

/** True when `value` is an object whose `key` holds an array: the mark of a batch-form answer. */
function hasArray(key: string) {
  return (value: unknown): boolean =>
    typeof value === 'object' && value !== null && Array.isArray((value as Record<string, unknown>)[key]);
}

/**
 * The spec does not state when a request gets the single or the batch form (batch rule 4), so the form is
 * told from the answer's shape, never from the number of items sent. The data is validated against the
 * chosen form only, so a failure names the path inside that form.
 */
function singleOrBatch<S extends z.ZodType, B extends z.ZodType>(
  isBatch: (value: unknown) => boolean,
  single: S,
  batch: B,
) {
  return z.unknown().transform((value, ctx) => {
    const batchForm = isBatch(value);
    const parsed = (batchForm ? batch : single).safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, input: undefined });
      return z.NEVER;
    }
    return batchForm
      ? { form: 'batch' as const, data: parsed.data as z.output<B> }
      : { form: 'single' as const, data: parsed.data as z.output<S> };
  });
}

/** Tolerant schemas: what the client parses answers with. */
export const schemas = buildSchemas('loose');
/** Exact schemas: for contract tests that check a service answers the spec's shapes and nothing else. */
export const strictSchemas = buildSchemas('strict');

export type PageMeta = z.output<typeof schemas.pageMeta>;
export type Blockchain = z.output<typeof schemas.blockchain>;
export type Aml = z.output<typeof schemas.aml>;
export type Address = z.output<typeof schemas.address>;
export type AutoSettlementRule = z.output<typeof schemas.autoSettlementRule>;
export type WalletAutoSettlement = z.output<typeof schemas.walletAutoSettlement>;
export type WalletAsset = z.output<typeof schemas.walletAsset>;
export type WalletAnalytics = z.output<typeof schemas.walletAnalytics>;
export type WalletConfigurations = z.output<typeof schemas.walletConfigurations>;
export type ApiCredential = z.output<typeof schemas.apiCredential>;
export type Wallet = z.output<typeof schemas.wallet>;
export type Transaction = z.output<typeof schemas.transaction>;
export type Beneficiary = z.output<typeof schemas.beneficiary>;
export type WebhookLog = z.output<typeof schemas.webhookLog>;

// ---------------------------------------------------------------------------------------------------------
// Request bodies. Shared by forms, server actions and the client's input types. The spec states which body
// fields are required only in places; where it does not, money-moving fields are required and the rest
// optional.

/** Compares two non-negative decimal strings exactly (no float rounding). */
function compareDecimals(a: string, b: string): number {
  const [ai = '0', af = ''] = a.split('.');
  const [bi = '0', bf = ''] = b.split('.');
  const aInt = ai.replace(/^0+(?=\d)/, '');
  const bInt = bi.replace(/^0+(?=\d)/, '');
  if (aInt.length !== bInt.length) return aInt.length < bInt.length ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const aa = aInt + af.padEnd(width, '0');
  const bb = bInt + bf.padEnd(width, '0');
  return aa === bb ? 0 : aa < bb ? -1 : 1;
}

const positiveAmount = z
  .string()
  .regex(POSITIVE_DECIMAL, 'Enter a decimal amount, e.g. 10.5')
  .refine((value) => compareDecimals(value, '0') > 0, 'Amount must be greater than 0');
/** Rule amounts and slippage: a non-negative decimal, or -1 for "no bound" / "no limit". */
const boundOrNone = z.string().regex(/^(-1|\d+(\.\d+)?)$/, 'Enter a non-negative decimal, or -1 for none');
const requiredText = z.string().trim().min(1, 'Required');
const metadataInput = z.record(z.string(), z.unknown());

/** Withdrawal item (#12, #13, #14): `id` is the asset id. */
export const withdrawalItemInput = z.object({
  id: requiredText,
  address: requiredText,
  amount: positiveAmount,
  reference: z.string().optional(),
  note: z.string().optional(),
  metadata: metadataInput.optional(),
});

/** Fee-estimate item (#15). */
const withdrawNetworkFeeItemInput = z.object({
  id: requiredText,
  address: requiredText,
  amount: positiveAmount,
});

export const withdrawBodyInput = z.object({ assets: z.array(withdrawalItemInput).min(1) });
export const withdrawNetworkFeeBodyInput = z.object({
  assets: z.array(withdrawNetworkFeeItemInput).min(1).max(MAX_BATCH_SIZE),
});

const abiParameter: z.ZodType<AbiParameterInput> = z.lazy(() =>
  z.looseObject({
    name: z.string().optional(),
    type: z.string(),
    internalType: z.string().optional(),
    components: z.array(abiParameter).optional(),
  }),
);
export interface AbiParameterInput {
  name?: string;
  type: string;
  internalType?: string;
  components?: AbiParameterInput[];
  [key: string]: unknown;
}

/** One ABI entry. Loose: ABI JSON carries more keys than the spec lists, and dropping them would alter it. */
const abiEntryInput = z.looseObject({
  type: z.string(),
  name: z.string().optional(),
  inputs: z.array(abiParameter).optional(),
  outputs: z.array(abiParameter).optional(),
  stateMutability: z.string().optional(),
  constant: z.boolean().optional(),
  payable: z.boolean().optional(),
});

/** Call item (#16 to #19). `reference` is for write and sign only, `metadata` for write only. */
export const callItemInput = z.object({
  address: requiredText,
  method: requiredText,
  abi: z.array(abiEntryInput).min(1),
  parameters: z.array(z.unknown()).optional(),
  // Beyond the spec's Call item: native coin (wei, decimal digits) sent with a payable call, when a request
  // carries one; never sent otherwise.
  value: z.string().optional(),
  reference: z.string().optional(),
  metadata: metadataInput.optional(),
});

export const contractCallsBodyInput = z.object({
  calls: z.array(callItemInput).min(1).max(MAX_BATCH_SIZE),
  // Two-factor code for #16 and #17: used once, never stored or logged.
  code: z.string().optional(),
});

/** Body of #10 and #11. */
export const autoSettlementRuleInput = z.object({
  name: requiredText,
  isActive: z.boolean(),
  order: z.enum(SETTLEMENT_ORDERS),
  slippageTolerance: boundOrNone,
  source: z
    .object({
      assets: z.array(requiredText).min(1),
      blockchain: requiredText,
      minAmount: boundOrNone,
      maxAmount: boundOrNone,
    })
    .refine(
      (source) =>
        source.minAmount === '-1' ||
        source.maxAmount === '-1' ||
        compareDecimals(source.minAmount, source.maxAmount) <= 0,
      {
        message: 'Minimum amount must not exceed maximum amount',
        path: ['maxAmount'],
      },
    ),
  destination: z.object({ address: requiredText, asset: requiredText, blockchain: requiredText }),
});

/** Body of #6. */
export const whitelistAddressInput = z.object({
  address: requiredText,
  name: z.string().optional(),
  metadata: metadataInput.optional(),
  disableAutoSweep: z.boolean().optional(),
  enableGaslessWithdraw: z.boolean().optional(),
  showPrivateKey: z.boolean().optional(),
  // Secret of the address: never logged or stored by the console.
  privateKey: z.string().optional(),
});

/** Body of the extension `POST /v1/wallets/{walletId}/addresses`: a new deposit (child) address. */
export const createAddressInput = z.object({
  name: z.string().optional(),
  metadata: metadataInput.optional(),
  disableAutoSweep: z.boolean().optional(),
  enableGaslessWithdraw: z.boolean().optional(),
  showPrivateKey: z.boolean().optional(),
});

/** Body of the extension `PATCH /v1/wallets/{walletId}`: what of the wallet a caller may change. */
export const updateWalletInput = z.object({
  name: z.string().trim().min(1, 'Required').optional(),
  description: z.string().optional(),
});

/** Body of the extension `PATCH /v1/wallets/{walletId}/addresses/{addressId}`. */
export const updateAddressInput = z.object({
  name: z.string().optional(),
  metadata: metadataInput.optional(),
  disableAutoSweep: z.boolean().optional(),
  enableGaslessWithdraw: z.boolean().optional(),
});

/** Body of #20. */
export const swapInput = z.object({
  amount: positiveAmount,
  fromAssetId: requiredText,
  toAssetId: requiredText,
  order: z.enum(SETTLEMENT_ORDERS),
  reference: z.string().optional(),
  metadata: metadataInput.optional(),
});

/** Body of the extension quote endpoint: what a swap (#20) would sell, without reference or metadata. */
export const swapQuoteInput = swapInput.pick({
  amount: true,
  fromAssetId: true,
  toAssetId: true,
  order: true,
});
export type SwapQuoteInput = z.input<typeof swapQuoteInput>;
export type SwapQuote = z.output<typeof schemas.swapQuote>;

/** Body of #21: EIP-712 typed data. Numeric message values travel as strings (spec). */
export const typedDataInput = z.object({
  // Loose: extra EIP-712 domain fields (e.g. salt) are part of what gets signed and must not be dropped.
  domain: z.looseObject({
    chainId: z.number().int(),
    name: z.string(),
    verifyingContract: z.string(),
    version: z.string(),
  }),
  message: z.record(z.string(), z.unknown()),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
});

export type WithdrawalItemInput = z.input<typeof withdrawalItemInput>;
export type WithdrawNetworkFeeItemInput = z.input<typeof withdrawNetworkFeeItemInput>;
/** A value as a caller may hold it, read-only all the way down (viem's ABI types are read-only). */
type ReadonlyDeep<T> = T extends readonly (infer U)[]
  ? readonly ReadonlyDeep<U>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadonlyDeep<T[K]> }
    : T;
/** A call item as the client sends it: only serialized, so read-only ABI entries are taken as they are. */
export type CallItemInput = ReadonlyDeep<z.input<typeof callItemInput>>;
export type AutoSettlementRuleInput = z.input<typeof autoSettlementRuleInput>;
export type WhitelistAddressInput = z.input<typeof whitelistAddressInput>;
export type CreateAddressInput = z.input<typeof createAddressInput>;
export type SwapInput = z.input<typeof swapInput>;
export type TypedDataInput = z.input<typeof typedDataInput>;
