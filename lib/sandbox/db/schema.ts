// The sandbox's own tables in the console's database (prefix sandbox_, migrations table __sandbox_migrations).
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { rateLimitTable } from '../../db/rate-limit';

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });
const stamps = {
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
};

/** Singleton values: the business record, sealed secrets, the seed marker. */
export const sandboxMeta = pgTable('sandbox_meta', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});

export const sandboxBlockchains = pgTable('sandbox_blockchains', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  symbol: text('symbol').notNull(),
  derivationPath: text('derivation_path').notNull(),
  isEvmCompatible: boolean('is_evm_compatible').notNull(),
  isL2: boolean('is_l2').notNull(),
  tokenStandard: text('token_standard'),
  logoUrl: text('logo_url').notNull(),
  chainId: integer('chain_id').notNull(),
  network: text('network').notNull(),
  /** Gas price in wei, decimal string. */
  gasPriceWei: text('gas_price_wei').notNull(),
  blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
  ...stamps,
});

export const sandboxAssets = pgTable('sandbox_assets', {
  id: uuid('id').primaryKey(),
  blockchainId: uuid('blockchain_id').notNull(),
  address: text('address').notNull(),
  name: text('name').notNull(),
  symbol: text('symbol').notNull(),
  decimals: integer('decimals').notNull(),
  network: text('network').notNull(),
  standard: text('standard'),
  logoUrl: text('logo_url').notNull(),
  usdPrice: text('usd_price').notNull(),
  isActive: boolean('is_active').notNull(),
  ...stamps,
});

export const sandboxWallets = pgTable('sandbox_wallets', {
  id: uuid('id').primaryKey(),
  blockchainId: uuid('blockchain_id').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  network: text('network').notNull(),
  address: text('address').notNull(),
  derivationPath: text('derivation_path').notNull(),
  accountIndex: integer('account_index').notNull(),
  /** sha256 of the API key: requests are authenticated without decrypting anything. */
  apiKeyHash: text('api_key_hash').notNull().unique(),
  apiKeySealed: text('api_key_sealed').notNull(),
  credentialId: uuid('credential_id').notNull(),
  status: text('status').notNull(),
  isActive: boolean('is_active').notNull(),
  autoSettlement: jsonb('auto_settlement').notNull(),
  ...stamps,
});

export const sandboxWalletAssets = pgTable('sandbox_wallet_assets', {
  id: uuid('id').primaryKey(),
  walletId: uuid('wallet_id').notNull(),
  assetId: uuid('asset_id').notNull(),
  isActive: boolean('is_active').notNull(),
  ...stamps,
});

export const sandboxAddresses = pgTable(
  'sandbox_addresses',
  {
    id: uuid('id').primaryKey(),
    walletId: uuid('wallet_id').notNull(),
    address: text('address').notNull(),
    name: text('name'),
    type: text('type').notNull(),
    network: text('network').notNull(),
    derivationPath: text('derivation_path'),
    addressIndex: integer('address_index'),
    metadata: jsonb('metadata'),
    configurations: jsonb('configurations').notNull(),
    isActive: boolean('is_active').notNull(),
    privateKeySealed: text('private_key_sealed'),
    ...stamps,
  },
  (t) => [index('sandbox_addresses_wallet_idx').on(t.walletId, t.createdAt)],
);

/** The ledger: one balance per asset and holder (any address, ours or not), in base units. */
export const sandboxBalances = pgTable(
  'sandbox_balances',
  {
    assetId: uuid('asset_id').notNull(),
    holder: text('holder').notNull(),
    amount: numeric('amount', { precision: 78, scale: 0 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.holder] })],
);

export const sandboxAllowances = pgTable(
  'sandbox_allowances',
  {
    assetId: uuid('asset_id').notNull(),
    owner: text('owner').notNull(),
    spender: text('spender').notNull(),
    amount: numeric('amount', { precision: 78, scale: 0 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.owner, t.spender] })],
);

export const sandboxNonces = pgTable(
  'sandbox_nonces',
  {
    chainId: integer('chain_id').notNull(),
    holder: text('holder').notNull(),
    nonce: integer('nonce').notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.holder] })],
);

export const sandboxRules = pgTable(
  'sandbox_rules',
  {
    id: uuid('id').primaryKey(),
    walletId: uuid('wallet_id').notNull(),
    /** Null for a wallet-level rule. */
    addressId: uuid('address_id'),
    name: text('name').notNull(),
    isActive: boolean('is_active').notNull(),
    order: text('order').notNull(),
    slippageTolerance: text('slippage_tolerance').notNull(),
    source: jsonb('source').notNull(),
    destination: jsonb('destination').notNull(),
    ...stamps,
  },
  (t) => [index('sandbox_rules_wallet_idx').on(t.walletId, t.addressId)],
);

export const sandboxBeneficiaries = pgTable(
  'sandbox_beneficiaries',
  {
    id: uuid('id').primaryKey(),
    walletId: uuid('wallet_id').notNull(),
    address: text('address').notNull(),
    name: text('name').notNull(),
    isActive: boolean('is_active').notNull(),
    isDefault: boolean('is_default').notNull(),
    isSettlement: boolean('is_settlement').notNull(),
    isWhitelisted: boolean('is_whitelisted').notNull(),
    settlementFrequency: text('settlement_frequency').notNull(),
    ...stamps,
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('sandbox_beneficiaries_wallet_idx').on(t.walletId, t.createdAt)],
);

// Amounts are decimal strings and sort as numbers; a missing or malformed one has no key. The list's ORDER BY
// and its indexes use these same expressions, so the planner can match them.
const DECIMAL = sql.raw(`'^-?[0-9]+([.][0-9]+)?$'`);
export const amountSortKey = (amount: AnyPgColumn) =>
  sql`(case when ${amount} ~ ${DECIMAL} then ${amount}::numeric end)`;
export const amountUsdSortKey = (body: AnyPgColumn) =>
  sql`(case when (${body} ->> 'amountUSD') ~ ${DECIMAL} then (${body} ->> 'amountUSD')::numeric end)`;

export const sandboxTransactions = pgTable(
  'sandbox_transactions',
  {
    id: uuid('id').primaryKey(),
    walletId: uuid('wallet_id').notNull(),
    addressId: uuid('address_id'),
    reference: text('reference').notNull(),
    hash: text('hash'),
    type: text('type').notNull(),
    status: text('status').notNull(),
    assetId: uuid('asset_id'),
    amount: text('amount'),
    senderAddress: text('sender_address').notNull(),
    recipientAddress: text('recipient_address').notNull(),
    confirmations: integer('confirmations'),
    blockNumber: bigint('block_number', { mode: 'number' }),
    /** Every other field of the spec's Transaction, already in its API shape. */
    body: jsonb('body').notNull(),
    /** What settlement must do (ledger moves, contract call, sweep); never served. */
    plan: jsonb('plan'),
    ...stamps,
  },
  (t) => [
    // The wallet-wide list (handlers/transactions.ts) orders by a key, then date, then id, both in the asked
    // direction, and counts what its filters match: each order and filter has an index that hands over one
    // page without sorting the wallet's whole history (50,000 rows: SANDBOX_SEED_TRANSACTIONS).
    index('sandbox_tx_wallet_idx').on(t.walletId, t.createdAt, t.id),
    index('sandbox_tx_wallet_status_idx').on(t.walletId, t.status, t.createdAt, t.id),
    index('sandbox_tx_wallet_type_idx').on(t.walletId, t.type, t.createdAt, t.id),
    index('sandbox_tx_wallet_asset_idx').on(t.walletId, t.assetId, t.createdAt, t.id),
    // Missing amounts come last in both directions, which one index scanned backwards cannot give: two each.
    index('sandbox_tx_wallet_amount_asc_idx').on(
      t.walletId,
      sql`${amountSortKey(t.amount)} asc nulls last`,
      t.createdAt,
      t.id,
    ),
    index('sandbox_tx_wallet_amount_desc_idx').on(
      t.walletId,
      sql`${amountSortKey(t.amount)} desc nulls last`,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('sandbox_tx_wallet_amount_usd_asc_idx').on(
      t.walletId,
      sql`${amountUsdSortKey(t.body)} asc nulls last`,
      t.createdAt,
      t.id,
    ),
    index('sandbox_tx_wallet_amount_usd_desc_idx').on(
      t.walletId,
      sql`${amountUsdSortKey(t.body)} desc nulls last`,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('sandbox_tx_address_idx').on(t.addressId, t.createdAt),
    index('sandbox_tx_status_idx').on(t.status),
    // What every block looks at (lib/sandbox/chain.ts): a few rows, not the whole settled history.
    index('sandbox_tx_unsettled_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'PENDING' and coalesce(${t.plan} ->> 'kind', 'stuck') <> 'stuck'`),
    index('sandbox_tx_unswept_idx').on(t.createdAt).where(sql`${t.plan} ->> 'sweep' = 'pending'`),
  ],
);

export const sandboxWebhookLogs = pgTable(
  'sandbox_webhook_logs',
  {
    id: uuid('id').primaryKey(),
    walletId: uuid('wallet_id').notNull(),
    transactionId: uuid('transaction_id').notNull(),
    event: text('event').notNull(),
    url: text('url').notNull(),
    attempts: integer('attempts').notNull(),
    /** success | failed once attempted; rows with attempts = 0 are the delivery queue. */
    status: text('status').notNull(),
    response: jsonb('response'),
    payload: jsonb('payload').notNull(),
    nextAttemptAt: ts('next_attempt_at'),
    ...stamps,
  },
  (t) => [
    index('sandbox_webhooks_wallet_idx').on(t.walletId, t.createdAt),
    index('sandbox_webhooks_tx_idx').on(t.transactionId),
    index('sandbox_webhooks_due_idx').on(t.nextAttemptAt),
  ],
);

/** Calls over HTTP per API key (lib/db/rate-limit.ts), shared by every sandbox instance on the database. */
export const sandboxRateLimitWindows = rateLimitTable('sandbox_rate_limit_windows');
