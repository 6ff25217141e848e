import 'server-only';
// The endpoints' behaviour. Each handler gets the authenticated wallet, path parameters, query and a
// structurally valid body, and returns the envelope's data and message (and meta for paged lists).
import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, gt, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import {
  type AbiFunction,
  decodeFunctionResult,
  encodeFunctionData,
  formatUnits,
  getAddress,
  type Hex,
  isAddress,
  isHex,
  keccak256,
  parseSignature,
  parseUnits,
  zeroAddress,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { encryptSecret } from '@/lib/crypto/aead';
import { TRANSACTION_SORT_FIELDS, type TransactionSortField } from '@/lib/custody/schemas';
import type { AnyDb } from '@/lib/db/types';
import {
  type AddressConfigurations,
  type AddressRow,
  type AssetRow,
  HttpError,
  invalid,
  notFound,
  type WalletRow,
} from './context';
import {
  ARRIVAL_SECONDS_PER_OPERATION,
  eventFor,
  GAS,
  type Holder,
  type Plan,
  type SandboxCore,
  type TransactionRow,
} from './core';
import {
  sandboxAddresses,
  sandboxBalances,
  sandboxBeneficiaries,
  sandboxRules,
  sandboxTransactions,
  sandboxWallets,
  sandboxWebhookLogs,
} from './db/schema';
import { ContractRevertError, ERC20_WRITE_METHODS, executeErc20 } from './erc20';
import { verifyTotp } from './keys';
import { centsToDollars, parseAmount, usdCents, usdValue } from './money';
import { quoteSwap, SWAP_SPREAD_BPS, usdPrice } from './rates';
import type * as req from './requests';
import {
  addressApi,
  assetApi,
  beneficiaryApi,
  blockchainApi,
  ruleApi,
  type TransactionBody,
  webhookLogApi,
} from './serialize';

export interface Result {
  data: unknown;
  message: string;
  meta?: PageMeta;
}

export interface PageMeta {
  currentPage: number;
  itemCount: number;
  itemsPerPage: number;
  totalItems: number;
  totalPages: number;
}

export interface Call<B = unknown> {
  wallet: WalletRow;
  params: Record<string, string>;
  query: URLSearchParams;
  body: B;
}

/** The spec's batch limits (min 1, max 20 operations). */
export const MAX_BATCH = 20;
const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 500;
const TX_TYPES = ['DEPOSIT', 'WITHDRAW', 'SALVAGE', 'SWAP', 'CUSTOM_SMART_CONTRACT', 'SIGNED'];
const TX_STATUSES = ['PENDING', 'SUCCESS', 'FAILED'];
const ORDERS = ['RECOMMENDED', 'FASTEST', 'CHEAPEST', 'NO_SLIPPAGE'];
const AML_CLEAR = { message: 'Address is not sanctioned', provider: 'ofac', status: 'success' };

function batchBounds(items: unknown[], what: string) {
  if (items.length < 1 || items.length > MAX_BATCH) {
    throw invalid(`${what} must contain between 1 and ${MAX_BATCH} operations (got ${items.length})`);
  }
}

export function paging(query: URLSearchParams) {
  const read = (name: string, fallback: number, max: number) => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw invalid(`${name} must be a positive whole number`);
    return Math.min(Number(raw), max);
  };
  const page = read('page', 1, Number.MAX_SAFE_INTEGER);
  const limit = read('limit', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  return { page, limit, offset: (page - 1) * limit };
}

export function pageMeta(total: number, page: number, limit: number, itemCount: number): PageMeta {
  return {
    currentPage: page,
    itemCount,
    itemsPerPage: limit,
    totalItems: total,
    totalPages: Math.ceil(total / limit),
  };
}

function orderOf(query: URLSearchParams): 'ASC' | 'DESC' {
  const raw = query.get('order');
  if (raw === null || raw === '') return 'DESC';
  const upper = raw.toUpperCase();
  if (upper !== 'ASC' && upper !== 'DESC') throw invalid('order must be ASC or DESC');
  return upper;
}

/**
 * Extension: `sort` of the wallet-wide transaction list (`GET /v1/wallets/{walletId}/transactions`), with
 * `order` as its direction. Amounts are decimal strings and compare as numbers; a missing or malformed value
 * sorts last in both directions; ties fall back to date, then id, in the same direction, so paging is stable.
 * #3 (per address) is the spec's and sorts by date only.
 */
const TX_SORTS = TRANSACTION_SORT_FIELDS;
type TxSort = TransactionSortField;
const DECIMAL = '^-?[0-9]+([.][0-9]+)?$';

function sortOf(query: URLSearchParams): TxSort {
  const raw = query.get('sort');
  if (raw === null || raw === '') return 'createdAt';
  const field = TX_SORTS.find((f) => f.toLowerCase() === raw.toLowerCase());
  if (!field) throw invalid(`sort must be one of ${TX_SORTS.join(', ')}`);
  return field;
}

function sortKeyOf(field: Exclude<TxSort, 'createdAt'>): SQL {
  const t = sandboxTransactions;
  switch (field) {
    case 'amount':
      return sql`(case when ${t.amount} ~ ${DECIMAL} then ${t.amount}::numeric end)`;
    case 'amountUSD':
      return sql`(case when (${t.body} ->> 'amountUSD') ~ ${DECIMAL} then (${t.body} ->> 'amountUSD')::numeric end)`;
    case 'type':
      return sql`${t.type}`;
    case 'status':
      return sql`${t.status}`;
  }
}

function checkAddress(value: string, what = 'address'): `0x${string}` {
  if (!isAddress(value)) throw invalid(`Invalid ${what}: ${value} is not a valid EVM address`);
  return getAddress(value);
}

export class Operations {
  constructor(private readonly core: SandboxCore) {}

  private get db() {
    return this.core.db;
  }
  private get catalog() {
    return this.core.catalog;
  }

  // --- lookups ---------------------------------------------------------------------------------

  address(wallet: WalletRow, addressId: string | undefined): AddressRow {
    const row = addressId ? this.catalog.addresses.get(addressId) : undefined;
    if (!row || row.walletId !== wallet.id) throw notFound('Address');
    return row;
  }

  private walletAsset(wallet: WalletRow, id: string): AssetRow {
    const asset = this.catalog.resolveWalletAsset(wallet, id);
    if (!asset) throw invalid(`Asset ${id} is not an asset of this wallet`);
    return asset;
  }

  private async transaction(wallet: WalletRow, id: string) {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('Transaction');
    const [row] = await this.db
      .select()
      .from(sandboxTransactions)
      .where(and(eq(sandboxTransactions.id, id), eq(sandboxTransactions.walletId, wallet.id)));
    if (!row) throw notFound('Transaction');
    return row;
  }

  private async walletBalances(wallet: WalletRow) {
    const assets = this.catalog.walletAssetsOf(wallet.id);
    const children = this.catalog.addressesOf(wallet.id).filter((a) => a.type === 'INTERNAL');
    const holders = [wallet.address, ...children.map((c) => c.address)].map((a) => a.toLowerCase());
    const rows = assets.length
      ? await this.db
          .select()
          .from(sandboxBalances)
          .where(
            and(
              inArray(
                sandboxBalances.assetId,
                assets.map((a) => a.asset.id),
              ),
              inArray(sandboxBalances.holder, holders),
            ),
          )
      : [];
    return { assets, rows, master: wallet.address.toLowerCase() };
  }

  // --- wallet and address reads ------------------------------------------------------------------

  async getWallet({ wallet, query }: Call): Promise<Result> {
    const chain = this.catalog.blockchainOf(wallet);
    const { assets, rows, master } = await this.walletBalances(wallet);
    let currentCents = 0n;
    let unsweptCents = 0n;
    for (const row of rows) {
      const asset = this.catalog.assets.get(row.assetId);
      if (!asset) continue;
      // The same per-asset cents the balances read reports, so the total is their exact sum.
      const cents = usdCents(BigInt(row.amount), asset.decimals, asset.usdPrice);
      if (row.holder === master) currentCents += cents;
      else unsweptCents += cents;
    }
    const walletRules = await this.db
      .select()
      .from(sandboxRules)
      .where(and(eq(sandboxRules.walletId, wallet.id), isNull(sandboxRules.addressId)))
      .orderBy(asc(sandboxRules.createdAt));
    const settlement = wallet.autoSettlement as { isActive: boolean; name: string };
    const apiKey = this.catalog.apiKeys.get(wallet.id) ?? '';
    const data = {
      id: wallet.id,
      address: wallet.address,
      name: wallet.name,
      description: wallet.description,
      network: wallet.network,
      status: wallet.status,
      isActive: wallet.isActive,
      derivationPath: wallet.derivationPath,
      blockchain: blockchainApi(chain),
      assets: assets.map(({ entry, asset }) => ({
        id: entry.id,
        asset: assetApi(this.catalog, asset),
        isActive: entry.isActive,
        createdAt: entry.createdAt.toISOString(),
        updatedAt: entry.updatedAt.toISOString(),
      })),
      analytics: {
        currentBalance: centsToDollars(currentCents),
        numberOfAssets: assets.length,
        unsweptBalance: centsToDollars(unsweptCents),
      },
      configurations: {
        addresses: { isActive: true, prefunding: { isActive: false, rules: [] } },
        autoSettlement: { isActive: settlement.isActive, rules: walletRules.map((r) => ruleApi(r, false)) },
      },
      business: this.catalog.business,
      apiCredential: {
        id: wallet.credentialId,
        type: 'API_KEY',
        status: 'ACTIVE',
        isActive: true,
        // The key is a secret: only its last characters are shown, enough to tell keys apart.
        key: `${'*'.repeat(12)}${apiKey.slice(-4)}`,
        webhookUrl: this.core.options.webhookUrl,
        createdAt: wallet.createdAt.toISOString(),
        updatedAt: wallet.updatedAt.toISOString(),
        revokedAt: null,
      },
      ...(query.get('showPrivateKey') === 'true'
        ? { privateKey: this.core.keys.privateKey(wallet.derivationPath) }
        : {}),
      createdAt: wallet.createdAt.toISOString(),
      updatedAt: wallet.updatedAt.toISOString(),
    };
    return { data, message: 'Wallet fetched successfully' };
  }

  async getAddress({ wallet, params, query }: Call): Promise<Result> {
    const row = this.address(wallet, params.addressId);
    const config = row.configurations as AddressConfigurations;
    // The private key is only revealed for an address configured to allow it.
    const reveal = query.get('showPrivateKey') === 'true' && config.showPrivateKey && row.derivationPath;
    const privateKey =
      reveal && row.derivationPath ? this.core.keys.privateKey(row.derivationPath) : undefined;
    return { data: addressApi(this.catalog, row, privateKey), message: 'Address fetched successfully' };
  }

  async listAddresses({ wallet, query }: Call): Promise<Result> {
    const { page, limit, offset } = paging(query);
    const search = query.get('search')?.trim().toLowerCase();
    const type = query.get('type')?.toUpperCase();
    if (type && type !== 'INTERNAL' && type !== 'EXTERNAL')
      throw invalid('type must be INTERNAL or EXTERNAL');
    let rows = this.catalog.addressesOf(wallet.id);
    if (type) rows = rows.filter((r) => r.type === type);
    if (search) {
      rows = rows.filter(
        (r) => r.address.toLowerCase().includes(search) || r.name?.toLowerCase().includes(search),
      );
    }
    if (orderOf(query) === 'DESC' && query.get('order')) rows = rows.reverse();
    const slice = rows.slice(offset, offset + limit);
    return {
      data: slice.map((r) => addressApi(this.catalog, r)),
      message: 'Addresses fetched successfully',
      meta: pageMeta(rows.length, page, limit, slice.length),
    };
  }

  async balances({ wallet, params }: Call): Promise<Result> {
    const holder = params.addressId ? this.address(wallet, params.addressId).address : wallet.address;
    const assets = this.catalog.walletAssetsOf(wallet.id);
    const rows = await this.db
      .select()
      .from(sandboxBalances)
      .where(eq(sandboxBalances.holder, holder.toLowerCase()));
    const data = assets.map(({ entry, asset }) => {
      const amount = BigInt(rows.find((r) => r.assetId === asset.id)?.amount ?? '0');
      return {
        asset: { id: entry.id, asset: assetApi(this.catalog, asset), isActive: entry.isActive },
        balance: formatUnits(amount, asset.decimals),
        convertedBalance: usdValue(amount, asset.decimals, asset.usdPrice),
      };
    });
    return {
      data,
      message: params.addressId
        ? 'Address balances fetched successfully'
        : 'Wallet balances fetched successfully',
    };
  }

  // --- transactions --------------------------------------------------------------------------------

  private async listTransactionsWhere(
    wallet: WalletRow,
    query: URLSearchParams,
    extra: SQL[],
    allTypes: boolean,
    sortable = false,
  ) {
    const { page, limit, offset } = paging(query);
    const where: SQL[] = [eq(sandboxTransactions.walletId, wallet.id), ...extra];
    const id = query.get('id');
    if (id) {
      if (!/^[0-9a-f-]{36}$/i.test(id)) throw invalid('id must be a UUID');
      where.push(eq(sandboxTransactions.id, id));
    }
    const hash = query.get('hash');
    if (hash) where.push(eq(sandboxTransactions.hash, hash));
    const status = query.get('status')?.toUpperCase();
    if (status) {
      if (!TX_STATUSES.includes(status)) throw invalid(`status must be one of ${TX_STATUSES.join(', ')}`);
      where.push(eq(sandboxTransactions.status, status));
    }
    const type = query.get('type')?.toUpperCase();
    if (type) {
      const allowed = allTypes ? TX_TYPES : ['DEPOSIT', 'WITHDRAW', 'SALVAGE'];
      if (!allowed.includes(type)) throw invalid(`type must be one of ${allowed.join(', ')}`);
      where.push(eq(sandboxTransactions.type, type));
    }
    const assets = query.get('assets');
    if (assets) {
      const symbols = assets
        .split(',')
        .map((s) => s.trim().toUpperCase())
        .filter(Boolean);
      const ids = this.catalog
        .walletAssetsOf(wallet.id)
        .filter((a) => symbols.includes(a.asset.symbol.toUpperCase()))
        .map((a) => a.asset.id);
      where.push(
        ids.length ? inArray(sandboxTransactions.assetId, ids) : eq(sandboxTransactions.id, zeroUuid),
      );
    }
    const order = orderOf(query);
    const sort = order === 'ASC' ? asc : desc;
    const field = sortable ? sortOf(query) : 'createdAt';
    const byDate = [sort(sandboxTransactions.createdAt), sort(sandboxTransactions.id)];
    const orderBy =
      field === 'createdAt'
        ? byDate
        : [
            order === 'ASC'
              ? sql`${sortKeyOf(field)} asc nulls last`
              : sql`${sortKeyOf(field)} desc nulls last`,
            ...byDate,
          ];
    const condition = and(...where);
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(sandboxTransactions)
        .where(condition)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
      this.db.select({ n: count() }).from(sandboxTransactions).where(condition),
    ]);
    return {
      data: rows.map((r) => this.core.serialize(r)),
      message: 'Transactions fetched successfully',
      meta: pageMeta(total?.n ?? 0, page, limit, rows.length),
    };
  }

  async listAddressTransactions({ wallet, params, query }: Call): Promise<Result> {
    const address = this.address(wallet, params.addressId);
    return this.listTransactionsWhere(wallet, query, [eq(sandboxTransactions.addressId, address.id)], false);
  }

  async listWalletTransactions({ wallet, query }: Call): Promise<Result> {
    const extra: SQL[] = [];
    const reference = query.get('reference');
    if (reference) extra.push(eq(sandboxTransactions.reference, reference));
    const addressId = query.get('addressId');
    if (addressId) extra.push(eq(sandboxTransactions.addressId, this.address(wallet, addressId).id));
    return this.listTransactionsWhere(wallet, query, extra, true, true);
  }

  async getTransaction({ wallet, params }: Call): Promise<Result> {
    const row = await this.transaction(wallet, params.id ?? '');
    return { data: this.core.serialize(row), message: 'Transaction fetched successfully' };
  }

  async retry({ wallet, body }: Call<{ id: string }>): Promise<Result> {
    const row = await this.transaction(wallet, body.id);
    if (row.status !== 'FAILED') throw invalid('Only failed transactions can be retried');
    const plan = (row.plan as Plan | null) ?? this.historyTransferPlan(row);
    if (!plan || plan.kind === 'stuck' || plan.kind === 'deposit') {
      throw invalid(`A ${row.type} transaction from the history cannot be retried in the sandbox`);
    }
    const next = await this.core.updateTransaction(this.db, row, {
      plan,
      status: 'PENDING',
      hash: null,
      blockNumber: null,
      confirmations: 0,
      body: { ...(row.body as TransactionBody), reason: null, confirmed: false, blockHash: null },
    });
    return { data: this.core.serialize(next), message: 'Transaction retried' };
  }

  /**
   * A failed withdrawal of the seeded history carries no plan; one is rebuilt from its fields so it can be
   * retried (#1) like any other: the same sender, recipient, asset and amount.
   */
  private historyTransferPlan(row: TransactionRow): Plan | null {
    if (row.type !== 'WITHDRAW' || !row.assetId || !row.amount || !row.senderAddress || !row.recipientAddress)
      return null;
    const asset = this.catalog.assets.get(row.assetId);
    if (!asset) return null;
    return {
      kind: 'transfer',
      from: row.senderAddress,
      to: row.recipientAddress,
      assetId: asset.id,
      amount: parseUnits(row.amount, asset.decimals).toString(),
      gasUsed: (asset.address === zeroAddress ? GAS.nativeTransfer : GAS.tokenTransfer).toString(),
    };
  }

  async resendWebhook({ wallet, body }: Call<{ id: string }>): Promise<Result> {
    const row = await this.transaction(wallet, body.id);
    const event = eventFor(row);
    if (!event) throw invalid('The transaction is still pending; it has no webhook to resend yet');
    await this.core.queueWebhook(this.db, row, event);
    return { data: this.core.serialize(row), message: 'Transaction fetched successfully' };
  }

  // --- whitelisting, beneficiaries, auto-settlement --------------------------------------------------

  async whitelist({ wallet, body }: Call<typeof req.whitelistBody._output>): Promise<Result> {
    const address = checkAddress(body.address);
    if (address.toLowerCase() === wallet.address.toLowerCase())
      throw invalid('The master wallet cannot be whitelisted');
    const existing = this.catalog.addressInWallet(wallet.id, address);
    if (existing) {
      if (existing.type === 'INTERNAL')
        throw invalid('The address is already an internal address of this wallet');
      return { data: addressApi(this.catalog, existing), message: 'Address whitelisted successfully' };
    }
    let privateKeySealed: string | null = null;
    const id = randomUUID();
    if (body.privateKey) {
      const key = body.privateKey.startsWith('0x') ? body.privateKey : `0x${body.privateKey}`;
      if (!isHex(key) || key.length !== 66) throw invalid('privateKey must be 32 bytes of hex');
      if (privateKeyToAccount(key).address !== address)
        throw invalid('privateKey does not belong to the address');
      privateKeySealed = encryptSecret(key, this.core.options.encryptionKey, `sandbox-address-key:${id}`);
    }
    const at = this.core.stamp();
    const [row] = await this.db
      .insert(sandboxAddresses)
      .values({
        id,
        walletId: wallet.id,
        address,
        name: body.name ?? null,
        type: 'EXTERNAL',
        network: wallet.network,
        derivationPath: null,
        addressIndex: null,
        metadata: body.metadata ?? null,
        configurations: {
          aml: AML_CLEAR,
          // Nothing can be swept from an address the service holds no key for.
          disableAutoSweep: body.disableAutoSweep ?? true,
          enableGaslessWithdraw: body.enableGaslessWithdraw ?? false,
          showPrivateKey: body.showPrivateKey ?? false,
          isActive: true,
        } satisfies AddressConfigurations,
        isActive: true,
        privateKeySealed,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    if (!row) throw new Error('insert returned nothing');
    this.catalog.putAddress(row);
    this.core.options.onCatalogChanged();
    return { data: addressApi(this.catalog, row), message: 'Address whitelisted successfully' };
  }

  async listBeneficiaries({ wallet, query }: Call): Promise<Result> {
    const { page, limit, offset } = paging(query);
    const where = and(eq(sandboxBeneficiaries.walletId, wallet.id), isNull(sandboxBeneficiaries.deletedAt));
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(sandboxBeneficiaries)
        .where(where)
        .orderBy(asc(sandboxBeneficiaries.createdAt), asc(sandboxBeneficiaries.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ n: count() }).from(sandboxBeneficiaries).where(where),
    ]);
    return {
      data: rows.map(beneficiaryApi),
      message: 'Beneficiaries fetched successfully',
      meta: pageMeta(total?.n ?? 0, page, limit, rows.length),
    };
  }

  async deleteBeneficiary({ wallet, params }: Call): Promise<Result> {
    const id = params.id ?? '';
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('Beneficiary');
    const at = this.core.stamp();
    const [row] = await this.db
      .update(sandboxBeneficiaries)
      .set({ deletedAt: at, updatedAt: at, isActive: false })
      .where(
        and(
          eq(sandboxBeneficiaries.id, id),
          eq(sandboxBeneficiaries.walletId, wallet.id),
          isNull(sandboxBeneficiaries.deletedAt),
        ),
      )
      .returning();
    if (!row) throw notFound('Beneficiary');
    this.core.options.onCatalogChanged();
    return { data: beneficiaryApi(row), message: 'Beneficiary deleted successfully' };
  }

  private async walletSettlement(wallet: WalletRow) {
    const rules = await this.db
      .select()
      .from(sandboxRules)
      .where(and(eq(sandboxRules.walletId, wallet.id), isNull(sandboxRules.addressId)))
      .orderBy(asc(sandboxRules.createdAt));
    const config = wallet.autoSettlement as { isActive: boolean; name: string };
    return { isActive: config.isActive, name: config.name, rules: rules.map((r) => ruleApi(r, false)) };
  }

  async getAutoSettlement({ wallet }: Call): Promise<Result> {
    return { data: await this.walletSettlement(wallet), message: 'Auto settlements fetched successfully' };
  }

  async patchAutoSettlement({ wallet, body }: Call<{ isActive: boolean }>): Promise<Result> {
    const config = {
      ...(wallet.autoSettlement as { isActive: boolean; name: string }),
      isActive: body.isActive,
    };
    const [row] = await this.db
      .update(sandboxWallets)
      .set({ autoSettlement: config, updatedAt: this.core.stamp() })
      .where(eq(sandboxWallets.id, wallet.id))
      .returning();
    if (row) {
      this.catalog.wallets.set(row.id, row);
      this.catalog.walletByKeyHash.set(row.apiKeyHash, row);
    }
    return {
      data: await this.walletSettlement(row ?? wallet),
      message: body.isActive
        ? 'Auto settlement enabled successfully'
        : 'Auto settlement disabled successfully',
    };
  }

  async listRules({ wallet, params }: Call): Promise<Result> {
    const address = this.address(wallet, params.addressId);
    const rows = await this.db
      .select()
      .from(sandboxRules)
      .where(and(eq(sandboxRules.walletId, wallet.id), eq(sandboxRules.addressId, address.id)))
      .orderBy(asc(sandboxRules.createdAt));
    return { data: rows.map((r) => ruleApi(r)), message: 'Auto settlement rules fetched successfully' };
  }

  private validateRule(rule: {
    order: string;
    slippageTolerance: string | number;
    source: { assets: string[]; blockchain: string; minAmount: string | number; maxAmount: string | number };
    destination: { address: string; asset: string; blockchain: string };
  }) {
    if (!ORDERS.includes(rule.order)) throw invalid(`order must be one of ${ORDERS.join(', ')}`);
    // -1 means "no limit" (slippage) or "no bound" (amounts).
    const decimal = /^(-1|\d+(\.\d+)?)$/;
    const slippage = String(rule.slippageTolerance);
    if (!decimal.test(slippage)) throw invalid('slippageTolerance must be a non-negative decimal or -1');
    const min = String(rule.source.minAmount);
    const max = String(rule.source.maxAmount);
    if (!decimal.test(min) || !decimal.test(max))
      throw invalid('minAmount and maxAmount must be non-negative decimals or -1');
    if (parseAmount(max, 36).ok && parseAmount(min, 36).ok) {
      const a = parseAmount(min, 36);
      const b = parseAmount(max, 36);
      if (a.ok && b.ok && a.value > b.value) throw invalid('minAmount must not exceed maxAmount');
    }
    if (rule.source.assets.length === 0) throw invalid('source.assets must name at least one asset');
    const destination = checkAddress(rule.destination.address, 'destination address');
    return {
      order: rule.order,
      slippageTolerance: slippage,
      source: { ...rule.source, minAmount: min, maxAmount: max },
      destination: { ...rule.destination, address: destination },
    };
  }

  async createRule({ wallet, params, body }: Call<typeof req.ruleCreateBody._output>): Promise<Result> {
    const address = this.address(wallet, params.addressId);
    const valid = this.validateRule(body);
    const at = this.core.stamp();
    const [row] = await this.db
      .insert(sandboxRules)
      .values({
        id: randomUUID(),
        walletId: wallet.id,
        addressId: address.id,
        name: body.name,
        isActive: body.isActive ?? true,
        ...valid,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    if (!row) throw new Error('insert returned nothing');
    return { data: ruleApi(row), message: 'Auto settlement rule created successfully' };
  }

  async updateRule({ wallet, params, body }: Call<typeof req.ruleUpdateBody._output>): Promise<Result> {
    const address = this.address(wallet, params.addressId);
    const id = params.id ?? '';
    const [current] = /^[0-9a-f-]{36}$/i.test(id)
      ? await this.db
          .select()
          .from(sandboxRules)
          .where(
            and(
              eq(sandboxRules.id, id),
              eq(sandboxRules.walletId, wallet.id),
              eq(sandboxRules.addressId, address.id),
            ),
          )
      : [];
    if (!current) throw notFound('Auto settlement rule');
    const merged = {
      order: body.order ?? current.order,
      slippageTolerance: body.slippageTolerance ?? current.slippageTolerance,
      source: { ...(current.source as Record<string, never>), ...body.source } as {
        assets: string[];
        blockchain: string;
        minAmount: string;
        maxAmount: string;
      },
      destination: { ...(current.destination as Record<string, never>), ...body.destination } as {
        address: string;
        asset: string;
        blockchain: string;
      },
    };
    const valid = this.validateRule(merged);
    const [row] = await this.db
      .update(sandboxRules)
      .set({
        name: body.name ?? current.name,
        isActive: body.isActive ?? current.isActive,
        ...valid,
        updatedAt: this.core.stamp(),
      })
      .where(eq(sandboxRules.id, current.id))
      .returning();
    if (!row) throw notFound('Auto settlement rule');
    return { data: ruleApi(row), message: 'Auto settlement rule updated successfully' };
  }

  // --- withdrawals -----------------------------------------------------------------------------------

  private checkWithdrawal(wallet: WalletRow, item: req.WithdrawalItem) {
    const asset = this.walletAsset(wallet, item.id);
    const to = checkAddress(item.address, 'recipient address');
    const amount = parseAmount(item.amount, asset.decimals, asset.symbol);
    if (!amount.ok) throw invalid(amount.message);
    return { asset, to, amount: amount.value };
  }

  private async createWithdrawals(holder: Holder, items: req.WithdrawalItem[]): Promise<Result> {
    batchBounds(items, 'assets');
    const checked = items.map((item, index) => {
      try {
        return { item, ...this.checkWithdrawal(holder.wallet, item) };
      } catch (error) {
        if (error instanceof HttpError && items.length > 1)
          throw invalid(`assets[${index}]: ${error.message}`);
        throw error;
      }
    });
    if (!holder.derivationPath) this.core.account(holder);
    const rows = await this.db.transaction(async (txq) => {
      const q = txq as unknown as AnyDb;
      const out = [];
      for (const { item, asset, to, amount } of checked) {
        const body = this.core.newBody(holder.wallet, asset, amount);
        body.note = item.note ?? null;
        body.metadata = item.metadata ?? null;
        const recipient = this.catalog.ownerOf(holder.chain.id, to);
        out.push(
          await this.core.insertTransaction(q, {
            walletId: holder.wallet.id,
            addressId: holder.child?.id ?? recipient?.address?.id ?? null,
            reference: item.reference || newReference(),
            type: 'WITHDRAW',
            status: 'PENDING',
            assetId: asset.id,
            amount: formatUnits(amount, asset.decimals),
            senderAddress: holder.address,
            recipientAddress: to,
            confirmations: 0,
            body,
            plan: {
              kind: 'transfer',
              from: holder.address,
              to,
              assetId: asset.id,
              amount: amount.toString(),
              gasUsed: (asset.address === zeroAddress ? GAS.nativeTransfer : GAS.tokenTransfer).toString(),
            } satisfies Plan,
          }),
        );
      }
      return out;
    });
    // The client reads one Transaction (spec #12); a batch answers with its first, the rest share the wallet's list.
    return { data: this.core.serialize(rows[0]!), message: 'Withdrawal request initiated successfully' };
  }

  async withdrawMaster({ wallet, body }: Call<{ assets: req.WithdrawalItem[] }>): Promise<Result> {
    return this.createWithdrawals(this.core.masterHolder(wallet), body.assets);
  }

  async withdrawAddress({ wallet, params, body }: Call<{ assets: req.WithdrawalItem[] }>): Promise<Result> {
    const child = this.address(wallet, params.addressId);
    return this.createWithdrawals(this.core.childHolder(wallet, child), body.assets);
  }

  async withdrawSign({ wallet, body }: Call<{ assets: req.WithdrawalItem[] }>): Promise<Result> {
    batchBounds(body.assets, 'assets');
    const holder = this.core.masterHolder(wallet);
    const success: Array<{ id: string; hash: string; signedTransaction: string }> = [];
    const errors: Array<{ index: number; id: string; message: string }> = [];
    for (const [index, item] of body.assets.entries()) {
      try {
        const { asset, to, amount } = this.checkWithdrawal(wallet, item);
        const signed = await this.core.signRaw(this.db, holder, this.core.transferCall(asset, to, amount));
        const txBody = this.core.newBody(wallet, asset, amount);
        Object.assign(txBody, {
          confirmed: true,
          signedTransaction: signed.serialized,
          note: item.note ?? null,
          metadata: item.metadata ?? null,
        });
        const row = await this.core.insertTransaction(this.db, {
          walletId: wallet.id,
          addressId: null,
          reference: item.reference || newReference(),
          hash: signed.hash,
          type: 'SIGNED',
          status: 'SUCCESS',
          assetId: asset.id,
          amount: formatUnits(amount, asset.decimals),
          senderAddress: holder.address,
          recipientAddress: to,
          confirmations: 0,
          body: txBody,
          plan: null,
        });
        await this.core.queueWebhook(this.db, row, 'signed.success');
        success.push({ id: row.id, hash: signed.hash, signedTransaction: signed.serialized });
      } catch (error) {
        errors.push({ index, id: item.id, message: messageOf(error) });
      }
    }
    return {
      data: { success, errors },
      message: `Batch withdrawal signed (${success.length}/${body.assets.length} successful)`,
    };
  }

  async withdrawNetworkFee({ wallet, body }: Call<{ assets: req.WithdrawalItem[] }>): Promise<Result> {
    batchBounds(body.assets, 'assets');
    const chain = this.catalog.blockchainOf(wallet);
    const native = this.catalog.nativeAsset(chain.id);
    const nativeBalance = await this.core.balance(this.db, native.id, wallet.address);
    const nativeText = formatUnits(nativeBalance, native.decimals);
    const nativeUsd = usdValue(nativeBalance, native.decimals, native.usdPrice);
    const fees = [];
    const errors: Array<{ index: number; assetId: string; message: string }> = [];
    let total = 0n;
    for (const [index, item] of body.assets.entries()) {
      try {
        const { asset, to, amount } = this.checkWithdrawal(wallet, item);
        const fee = this.core.feeFor(
          chain,
          asset.address === zeroAddress ? GAS.nativeTransfer : GAS.tokenTransfer,
        );
        total += fee;
        fees.push({
          index,
          assetId: item.id,
          address: to,
          amount: formatUnits(amount, asset.decimals),
          networkFee: formatUnits(fee, native.decimals),
          transactionFee: '0',
          estimatedArrivalTime: ARRIVAL_SECONDS_PER_OPERATION,
        });
      } catch (error) {
        if (body.assets.length === 1) throw error;
        errors.push({ index, assetId: item.id, message: messageOf(error) });
      }
    }
    const message = 'Network fee fetched successfully';
    if (body.assets.length === 1) {
      return {
        data: { nativeBalance: nativeText, nativeBalanceInUSD: nativeUsd, networkFee: fees[0]!.networkFee },
        message,
      };
    }
    return {
      data: {
        fees,
        totalNetworkFee: formatUnits(total, native.decimals),
        totalNetworkFeeInUSD: usdValue(total, native.decimals, native.usdPrice),
        totalTransactionFee: '0',
        nativeBalance: nativeText,
        nativeBalanceInUSD: nativeUsd,
        estimatedArrivalTime: fees.length * ARRIVAL_SECONDS_PER_OPERATION,
        errors,
      },
      message,
    };
  }

  // --- contracts ---------------------------------------------------------------------------------------

  private requireCode(code: string | undefined) {
    if (!code) throw new HttpError(403, 'Two-factor code is required for this operation');
    if (!verifyTotp(this.core.totpSecret, code, this.core.nowMs()))
      throw new HttpError(403, 'Invalid two-factor code');
  }

  private prepare(wallet: WalletRow, call: req.CallItem) {
    const contract = checkAddress(call.address, 'contract address');
    const params = call.parameters ?? [];
    const candidates = call.abi.filter(
      (e) => e.type === 'function' && e.name === call.method,
    ) as unknown as AbiFunction[];
    if (candidates.length === 0) throw invalid(`Method ${call.method} is not in the ABI`);
    const fn = candidates.find((f) => f.inputs.length === params.length);
    if (!fn)
      throw invalid(
        `Method ${call.method} takes ${candidates[0]!.inputs.length} parameters, ${params.length} given`,
      );
    let data: Hex;
    try {
      const args = fn.inputs.map((input, i) => coerceArg(input.type, params[i]));
      data = encodeFunctionData({ abi: [fn], functionName: fn.name, args });
    } catch (error) {
      throw invalid(`Invalid parameters for ${call.method}: ${shortMessage(error)}`);
    }
    const chain = this.catalog.blockchainOf(wallet);
    const token = this.catalog.tokenAt(chain.id, contract);
    return { contract, fn, data, token, chain };
  }

  private tokenInfo(token: AssetRow) {
    return {
      address: getAddress(token.address),
      name: token.name,
      symbol: token.symbol,
      decimals: token.decimals,
    };
  }

  private async runBatch<T>(
    calls: req.CallItem[],
    run: (call: req.CallItem, index: number) => Promise<T>,
  ): Promise<{ success: T[]; errors: Array<{ index: number; method: string; message: string }> }> {
    const success: T[] = [];
    const errors: Array<{ index: number; method: string; message: string }> = [];
    // Spec batch rules 1 and 2: in order, and one failure does not stop the rest.
    for (const [index, call] of calls.entries()) {
      try {
        success.push(await run(call, index));
      } catch (error) {
        if (!(error instanceof HttpError || error instanceof ContractRevertError)) throw error;
        errors.push({ index, method: call.method, message: error.message });
      }
    }
    return { success, errors };
  }

  private noContract(contract: string, chainName: string) {
    return invalid(`No contract is deployed at ${contract} on ${chainName} in the sandbox`);
  }

  async contractRead({ wallet, body }: Call<{ calls: req.CallItem[] }>): Promise<Result> {
    batchBounds(body.calls, 'calls');
    const read = async (call: req.CallItem) => {
      const { contract, fn, data, token, chain } = this.prepare(wallet, call);
      if (!token) throw this.noContract(contract, chain.name);
      const outcome = await executeErc20(
        this.tokenInfo(token),
        this.core.tokenLedger(this.db, token),
        getAddress(wallet.address),
        data,
        { dryRun: true },
      );
      const value = decodeFunctionResult({ abi: [fn], functionName: fn.name, data: outcome.returnData });
      return stringifyResult(value);
    };
    if (body.calls.length === 1) {
      try {
        return { data: await read(body.calls[0]!), message: 'Contract read successfully' };
      } catch (error) {
        if (error instanceof ContractRevertError) throw invalid(error.message);
        throw error;
      }
    }
    const { success, errors } = await this.runBatch(body.calls, async (call, index) => ({
      index,
      method: call.method,
      data: await read(call),
    }));
    return {
      data: { success, errors },
      message: `Batch contract read completed (${success.length}/${body.calls.length} successful)`,
    };
  }

  private gasForMethod(fn: AbiFunction): bigint {
    if (fn.name === 'transfer') return GAS.tokenTransfer;
    if (fn.name === 'approve') return GAS.approve;
    if (fn.name === 'transferFrom') return GAS.transferFrom;
    if (fn.stateMutability === 'view' || fn.stateMutability === 'pure') return GAS.contractRead;
    return GAS.contractCall;
  }

  async contractNetworkFee({ wallet, body }: Call<{ calls: req.CallItem[] }>): Promise<Result> {
    batchBounds(body.calls, 'calls');
    const chain = this.catalog.blockchainOf(wallet);
    const native = this.catalog.nativeAsset(chain.id);
    const balance = await this.core.balance(this.db, native.id, wallet.address);
    const balanceText = formatUnits(balance, native.decimals);
    const balanceUsd = usdValue(balance, native.decimals, native.usdPrice);
    const estimate = async (call: req.CallItem) => {
      const { contract, fn, data, token } = this.prepare(wallet, call);
      if (!token) throw this.noContract(contract, chain.name);
      // Like eth_estimateGas: the selector must be one the contract answers.
      await executeErc20(
        this.tokenInfo(token),
        this.core.tokenLedger(this.db, token),
        getAddress(wallet.address),
        data,
        {
          dryRun: true,
        },
      ).catch((error) => {
        if (error instanceof ContractRevertError && error.message.includes('does not implement')) throw error;
      });
      return this.core.feeFor(chain, this.gasForMethod(fn));
    };
    if (body.calls.length === 1) {
      try {
        const fee = await estimate(body.calls[0]!);
        return {
          data: { balance: balanceText, fee: formatUnits(fee, native.decimals) },
          message: 'Network fee retrieved successfully',
        };
      } catch (error) {
        if (error instanceof ContractRevertError) throw invalid(error.message);
        throw error;
      }
    }
    let total = 0n;
    const { success, errors } = await this.runBatch(body.calls, async (call, index) => {
      const fee = await estimate(call);
      total += fee;
      const text = formatUnits(fee, native.decimals);
      return {
        index,
        method: call.method,
        fee: text,
        networkFee: text,
        networkFeeInUSD: usdValue(fee, native.decimals, native.usdPrice),
        nativeBalance: balanceText,
        nativeBalanceInUSD: balanceUsd,
        estimatedArrivalTime: ARRIVAL_SECONDS_PER_OPERATION,
        transactionFee: '0',
      };
    });
    return {
      data: {
        fees: success,
        totalFee: formatUnits(total, native.decimals),
        estimatedArrivalTime: success.length * ARRIVAL_SECONDS_PER_OPERATION,
        errors,
      },
      message: `Batch network fee retrieved (${success.length}/${body.calls.length} successful)`,
    };
  }

  async contractWrite({
    wallet,
    params,
    body,
  }: Call<{ calls: req.CallItem[]; code?: string }>): Promise<Result> {
    batchBounds(body.calls, 'calls');
    this.requireCode(body.code);
    const child = this.address(wallet, params.addressId);
    const holder = this.core.childHolder(wallet, child);
    this.core.account(holder);
    const write = async (call: req.CallItem) => {
      const { contract, fn, data, token, chain } = this.prepare(wallet, call);
      if (!token) throw this.noContract(contract, chain.name);
      // Simulated first, as a wallet would, so a call that cannot succeed is refused now.
      const outcome = await executeErc20(
        this.tokenInfo(token),
        this.core.tokenLedger(this.db, token),
        holder.address,
        data,
        { dryRun: true },
      ).catch((error) => {
        if (error instanceof ContractRevertError) throw invalid(`Execution reverted: ${error.message}`);
        throw error;
      });
      if (!ERC20_WRITE_METHODS.has(outcome.method)) {
        throw invalid(`Method ${call.method} does not change state; use contracts/read`);
      }
      const txBody = this.core.newBody(wallet, undefined, undefined);
      txBody.metadata = call.metadata ?? null;
      txBody.tokenAddress = token.address;
      txBody.reason = serializeCall(call);
      return this.core.insertTransaction(this.db, {
        walletId: wallet.id,
        addressId: child.id,
        reference: call.reference || newReference(),
        type: 'CUSTOM_SMART_CONTRACT',
        status: 'PENDING',
        assetId: null,
        amount: null,
        senderAddress: holder.address,
        recipientAddress: contract,
        confirmations: 0,
        body: txBody,
        plan: {
          kind: 'contract',
          from: holder.address,
          contract,
          data,
          gasUsed: this.gasForMethod(fn).toString(),
        },
      });
    };
    if (body.calls.length === 1) {
      const row = await write(body.calls[0]!);
      return { data: this.core.serialize(row), message: 'Contract write initiated successfully' };
    }
    const { success, errors } = await this.runBatch(body.calls, async (call) => {
      const row = await write(call);
      return { id: row.id, hash: row.hash, status: row.status, reference: row.reference };
    });
    return { data: { success, errors }, message: 'Batch contract write initiated successfully' };
  }

  async contractSign({
    wallet,
    params,
    body,
  }: Call<{ calls: req.CallItem[]; code?: string }>): Promise<Result> {
    batchBounds(body.calls, 'calls');
    this.requireCode(body.code);
    const child = this.address(wallet, params.addressId);
    const holder = this.core.childHolder(wallet, child);
    this.core.account(holder);
    const sign = async (call: req.CallItem) => {
      const { contract, fn, data } = this.prepare(wallet, call);
      const signed = await this.core.signRaw(this.db, holder, {
        to: contract,
        data,
        gas: this.gasForMethod(fn),
      });
      const txBody = this.core.newBody(wallet, undefined, undefined);
      Object.assign(txBody, {
        confirmed: true,
        signedTransaction: signed.serialized,
        reason: serializeCall(call),
      });
      const row = await this.core.insertTransaction(this.db, {
        walletId: wallet.id,
        addressId: child.id,
        reference: call.reference || newReference(),
        hash: signed.hash,
        type: 'SIGNED',
        status: 'SUCCESS',
        assetId: null,
        amount: null,
        senderAddress: holder.address,
        recipientAddress: contract,
        confirmations: 0,
        body: txBody,
        plan: null,
      });
      await this.core.queueWebhook(this.db, row, 'signed.success');
      return { row, signed: signed.serialized };
    };
    if (body.calls.length === 1) {
      const { row } = await sign(body.calls[0]!);
      return { data: this.core.serialize(row), message: 'Contract write signed successfully' };
    }
    const { success, errors } = await this.runBatch(body.calls, async (call, index) => {
      const { signed } = await sign(call);
      return { index, method: call.method, signedTransaction: signed };
    });
    return { data: { success, errors }, message: 'Batch contract write signed successfully' };
  }

  // --- swaps and signing ------------------------------------------------------------------------------------

  async swap({ wallet, params, body }: Call<typeof req.swapBody._output>): Promise<Result> {
    const child = this.address(wallet, params.addressId);
    const holder = this.core.childHolder(wallet, child);
    this.core.account(holder);
    const order = (body.order ?? 'RECOMMENDED').toUpperCase();
    if (!(order in SWAP_SPREAD_BPS)) throw invalid(`order must be one of ${ORDERS.join(', ')}`);
    const from = this.walletAsset(wallet, body.fromAssetId);
    const target = this.catalog.resolveAnyAsset(body.toAssetId);
    if (!target) throw invalid(`Asset ${body.toAssetId} is not an asset of this business`);
    if (target.asset.id === from.id) throw invalid('fromAssetId and toAssetId must be different assets');
    if (!usdPrice(from.symbol) || !usdPrice(target.asset.symbol)) {
      throw invalid(`No rate for ${from.symbol} to ${target.asset.symbol}`);
    }
    const amount = parseAmount(body.amount, from.decimals, from.symbol);
    if (!amount.ok) throw invalid(amount.message);
    const quote = quoteSwap(from, target.asset, amount.value, order);
    if (quote.toAmount <= 0n) throw invalid('Amount is too small to swap');
    const toHolder = target.wallet.id === wallet.id ? holder.address : getAddress(target.wallet.address);
    const txBody = this.core.newBody(wallet, from, amount.value);
    Object.assign(txBody, {
      rate: quote.rate,
      toAmount: formatUnits(quote.toAmount, target.asset.decimals),
      toCurrency: target.asset.symbol,
      toAssetId: target.asset.id,
      toWalletId: target.wallet.id,
      metadata: body.metadata ?? null,
    });
    const row = await this.core.insertTransaction(this.db, {
      walletId: wallet.id,
      addressId: child.id,
      reference: body.reference || newReference(),
      type: 'SWAP',
      status: 'PENDING',
      assetId: from.id,
      amount: formatUnits(amount.value, from.decimals),
      senderAddress: holder.address,
      recipientAddress: toHolder,
      confirmations: 0,
      body: txBody,
      plan: {
        kind: 'swap',
        holder: holder.address,
        fromAssetId: from.id,
        amount: amount.value.toString(),
        toAssetId: target.asset.id,
        toAmount: quote.toAmount.toString(),
        toHolder,
        gasUsed: GAS.swap.toString(),
      },
    });
    return { data: this.core.serialize(row), message: 'Swap transaction created successfully' };
  }

  async signTypedData({ wallet, params, body }: Call<typeof req.typedDataBody._output>): Promise<Result> {
    const child = this.address(wallet, params.addressId);
    const holder = this.core.childHolder(wallet, child);
    const account = this.core.account(holder);
    const types = { ...body.types };
    delete types.EIP712Domain;
    const primaryType = body.primaryType ?? inferPrimaryType(types);
    if (!primaryType || !types[primaryType]) throw invalid('Cannot tell the primary type from types');
    let signature: Hex;
    try {
      signature = await account.signTypedData({
        // biome-ignore lint/suspicious/noExplicitAny: caller-defined EIP-712 types; viem validates them at run time.
        domain: body.domain as any,
        types,
        primaryType,
        message: body.message,
      });
    } catch (error) {
      throw invalid(`Invalid typed data: ${shortMessage(error)}`);
    }
    const parts = parseSignature(signature);
    const v = parts.v !== undefined ? Number(parts.v) : 27 + parts.yParity;
    const txBody = this.core.newBody(wallet, undefined, undefined);
    Object.assign(txBody, {
      confirmed: true,
      createdChannel: 'api',
      signedTransaction: { r: parts.r, s: parts.s, signature, v },
      reason: JSON.stringify({ primaryType, domain: body.domain }),
    });
    const verifying = typeof body.domain.verifyingContract === 'string' ? body.domain.verifyingContract : '';
    const row = await this.core.insertTransaction(this.db, {
      walletId: wallet.id,
      addressId: child.id,
      reference: newReference(),
      hash: keccak256(signature),
      type: 'SIGNED',
      status: 'SUCCESS',
      assetId: null,
      amount: null,
      senderAddress: holder.address,
      recipientAddress: isAddress(verifying) ? getAddress(verifying) : holder.address,
      confirmations: 0,
      body: txBody,
      plan: null,
    });
    await this.core.queueWebhook(this.db, row, 'signed.success');
    return { data: this.core.serialize(row), message: 'Typed data signed successfully' };
  }

  // --- webhook logs -------------------------------------------------------------------------------------------

  async listWebhooks({ wallet, query }: Call): Promise<Result> {
    const { page, limit, offset } = paging(query);
    const where = and(eq(sandboxWebhookLogs.walletId, wallet.id), attempted);
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(sandboxWebhookLogs)
        .where(where)
        .orderBy(desc(sandboxWebhookLogs.createdAt), desc(sandboxWebhookLogs.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ n: count() }).from(sandboxWebhookLogs).where(where),
    ]);
    return {
      data: rows.map(webhookLogApi),
      message: 'Webhooks fetched successfully',
      meta: pageMeta(total?.n ?? 0, page, limit, rows.length),
    };
  }

  async transactionWebhooks({ wallet, params }: Call): Promise<Result> {
    const row = await this.transaction(wallet, params.id ?? '');
    const logs = await this.db
      .select()
      .from(sandboxWebhookLogs)
      .where(and(eq(sandboxWebhookLogs.transactionId, row.id), attempted))
      .orderBy(asc(sandboxWebhookLogs.createdAt), asc(sandboxWebhookLogs.id));
    return { data: logs.map(webhookLogApi), message: 'Transaction webhook logs fetched successfully' };
  }

  // --- control -------------------------------------------------------------------------------------------------

  async deposit({ wallet, body }: Call<typeof req.depositBody._output>): Promise<Result> {
    const child = this.address(wallet, body.addressId);
    const asset = this.walletAsset(wallet, body.assetId);
    const amount = parseAmount(body.amount, asset.decimals, asset.symbol);
    if (!amount.ok) throw invalid(amount.message);
    const config = child.configurations as AddressConfigurations;
    // Only an address whose key the service holds can be swept.
    const sweep = config.disableAutoSweep || !child.derivationPath ? 'skip' : 'pending';
    const txBody = this.core.newBody(wallet, asset, amount.value);
    txBody.amlScreening = AML_CLEAR;
    txBody.assetSwept = false;
    const row = await this.core.insertTransaction(this.db, {
      walletId: wallet.id,
      addressId: child.id,
      reference: newReference(),
      type: 'DEPOSIT',
      status: 'PENDING',
      assetId: asset.id,
      amount: formatUnits(amount.value, asset.decimals),
      senderAddress: getAddress(`0x${randomBytes(20).toString('hex')}`),
      recipientAddress: getAddress(child.address),
      confirmations: 0,
      body: txBody,
      plan: { kind: 'deposit', to: child.address, assetId: asset.id, amount: amount.value.toString(), sweep },
    });
    return { data: this.core.serialize(row), message: 'Deposit created successfully' };
  }
}

const zeroUuid = '00000000-0000-0000-0000-000000000000';
// Rows with no attempt yet are the delivery queue, not log entries.
const attempted = gt(sandboxWebhookLogs.attempts, 0);

export function newReference(): string {
  return randomBytes(8).toString('base64url').replace(/[-_]/g, 'x');
}

function messageOf(error: unknown): string {
  if (error instanceof HttpError || error instanceof ContractRevertError) return error.message;
  throw error;
}

function shortMessage(error: unknown): string {
  if (
    error &&
    typeof error === 'object' &&
    'shortMessage' in error &&
    typeof error.shortMessage === 'string'
  ) {
    return error.shortMessage;
  }
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

/** JSON numbers and strings in, the ABI's types out: integers as bigint, booleans from "true"/"false". */
export function coerceArg(type: string, value: unknown): unknown {
  if (type.endsWith(']')) {
    if (!Array.isArray(value)) throw new Error(`expected an array for ${type}`);
    const inner = type.slice(0, type.lastIndexOf('['));
    return value.map((v) => coerceArg(inner, v));
  }
  if (/^u?int\d*$/.test(type)) {
    if (typeof value === 'bigint') return value;
    if ((typeof value === 'string' && /^-?\d+$/.test(value.trim())) || Number.isSafeInteger(value)) {
      return BigInt(String(value).trim());
    }
    throw new Error(`expected an integer for ${type}, got ${JSON.stringify(value)}`);
  }
  if (type === 'bool') {
    if (value === 'true') return true;
    if (value === 'false') return false;
    return value;
  }
  return value;
}

export function stringifyResult(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

function serializeCall(call: req.CallItem): string {
  return JSON.stringify({ address: call.address, method: call.method, parameters: call.parameters ?? [] });
}

function inferPrimaryType(types: Record<string, Array<{ name: string; type: string }>>): string | undefined {
  const referenced = new Set<string>();
  for (const fields of Object.values(types))
    for (const f of fields) referenced.add(f.type.replace(/\[\d*\]$/g, ''));
  return Object.keys(types).find((name) => !referenced.has(name));
}
