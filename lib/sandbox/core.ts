import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  formatUnits,
  getAddress,
  type Hex,
  keccak256,
  type PrivateKeyAccount,
  zeroAddress,
} from 'viem';
import type { AnyDb } from '@/lib/db/types';
import {
  type AddressRow,
  type AssetRow,
  type BlockchainRow,
  type Catalog,
  HttpError,
  type Logger,
  type WalletRow,
} from './context';
import {
  sandboxAllowances,
  sandboxBalances,
  sandboxNonces,
  sandboxTransactions,
  sandboxWebhookLogs,
} from './db/schema';
import type { TokenLedger } from './erc20';
import type { KeyRing } from './keys';
import { applyDelta, usdValue } from './money';
import { emptyBody, type TransactionBody, transactionApi } from './serialize';

export type TransactionRow = typeof sandboxTransactions.$inferSelect;
export type TransactionInsert = typeof sandboxTransactions.$inferInsert;

/** Gas each kind of operation uses on the simulated chains. */
export const GAS = {
  nativeTransfer: 21_000n,
  tokenTransfer: 65_000n,
  approve: 46_000n,
  transferFrom: 70_000n,
  swap: 150_000n,
  contractRead: 30_000n,
  contractCall: 80_000n,
} as const;

/** The spec: 30 seconds per operation in network-fee estimates. */
export const ARRIVAL_SECONDS_PER_OPERATION = 30;

export interface CoreOptions {
  db: AnyDb;
  catalog: Catalog;
  keys: KeyRing;
  totpSecret: string;
  now: () => number;
  webhookUrl: string;
  webhookRetryMs: number[];
  signatureHeader: string;
  confirmations: number;
  /** How long a swap quote holds. */
  quoteTtlMs: number;
  fetch: typeof fetch;
  logger: Logger;
  encryptionKey: Buffer;
  /** Called after a webhook row is queued (the running sandbox delivers it soon). */
  onWebhookQueued: () => void;
  /** Called after addresses or beneficiaries change (the credentials file is rewritten). */
  onCatalogChanged: () => void;
}

/** Plans run when a transaction is included in a block; stored with the row, never served. */
export type Plan =
  | {
      kind: 'transfer';
      from: string;
      to: string;
      assetId: string;
      amount: string;
      gasUsed: string;
      /** Who pays the network fee when it is not `from`: the master wallet, for a gasless child withdrawal. */
      gasPayer?: string;
    }
  | { kind: 'deposit'; to: string; assetId: string; amount: string; sweep: 'pending' | 'skip' | 'done' }
  | {
      kind: 'swap';
      holder: string;
      fromAssetId: string;
      amount: string;
      toAssetId: string;
      toAmount: string;
      toHolder: string;
      gasUsed: string;
    }
  | { kind: 'contract'; from: string; contract: string; data: Hex; gasUsed: string }
  /** Seeded history left pending on purpose: a stuck transaction, ignored by the chain. */
  | { kind: 'stuck' };

/** A source of funds and signatures: the master wallet or one of its child addresses. */
export interface Holder {
  wallet: WalletRow;
  chain: BlockchainRow;
  address: Address;
  child?: AddressRow;
  derivationPath: string | null;
}

export class SandboxCore {
  readonly db: AnyDb;
  readonly catalog: Catalog;
  readonly keys: KeyRing;
  readonly totpSecret: string;
  private lastNow = 0;

  constructor(readonly options: CoreOptions) {
    this.db = options.db;
    this.catalog = options.catalog;
    this.keys = options.keys;
    this.totpSecret = options.totpSecret;
  }

  /** Strictly increasing timestamps, so `updatedAt` changes on every write even under a frozen test clock. */
  stamp(): Date {
    const t = Math.max(this.options.now(), this.lastNow + 1);
    this.lastNow = t;
    return new Date(t);
  }

  nowMs(): number {
    return this.options.now();
  }

  // --- ledger -------------------------------------------------------------------------------

  async balance(q: AnyDb, assetId: string, holder: string): Promise<bigint> {
    const [row] = await q
      .select({ amount: sandboxBalances.amount })
      .from(sandboxBalances)
      .where(and(eq(sandboxBalances.assetId, assetId), eq(sandboxBalances.holder, holder.toLowerCase())));
    return row ? BigInt(row.amount) : 0n;
  }

  async setBalance(q: AnyDb, assetId: string, holder: string, amount: bigint): Promise<void> {
    await q
      .insert(sandboxBalances)
      .values({ assetId, holder: holder.toLowerCase(), amount: amount.toString() })
      .onConflictDoUpdate({
        target: [sandboxBalances.assetId, sandboxBalances.holder],
        set: { amount: amount.toString() },
      });
  }

  /** Adds `delta` (negative to debit); throws InsufficientBalanceError rather than overdraw. */
  async adjust(q: AnyDb, assetId: string, holder: string, delta: bigint): Promise<bigint> {
    const next = applyDelta(await this.balance(q, assetId, holder), delta);
    await this.setBalance(q, assetId, holder, next);
    return next;
  }

  tokenLedger(q: AnyDb, asset: AssetRow): TokenLedger {
    return {
      balanceOf: (holder) => this.balance(q, asset.id, holder),
      setBalance: (holder, amount) => this.setBalance(q, asset.id, holder, amount),
      allowance: async (owner, spender) => {
        const [row] = await q
          .select({ amount: sandboxAllowances.amount })
          .from(sandboxAllowances)
          .where(
            and(
              eq(sandboxAllowances.assetId, asset.id),
              eq(sandboxAllowances.owner, owner.toLowerCase()),
              eq(sandboxAllowances.spender, spender.toLowerCase()),
            ),
          );
        return row ? BigInt(row.amount) : 0n;
      },
      setAllowance: async (owner, spender, amount) => {
        await q
          .insert(sandboxAllowances)
          .values({
            assetId: asset.id,
            owner: owner.toLowerCase(),
            spender: spender.toLowerCase(),
            amount: amount.toString(),
          })
          .onConflictDoUpdate({
            target: [sandboxAllowances.assetId, sandboxAllowances.owner, sandboxAllowances.spender],
            set: { amount: amount.toString() },
          });
      },
      totalSupply: async () => {
        const [row] = await q
          .select({ total: sql<string>`coalesce(sum(${sandboxBalances.amount}), 0)::text` })
          .from(sandboxBalances)
          .where(eq(sandboxBalances.assetId, asset.id));
        return BigInt(row?.total ?? '0');
      },
    };
  }

  async nextNonce(q: AnyDb, chainId: number, holder: string): Promise<number> {
    const [row] = await q
      .insert(sandboxNonces)
      .values({ chainId, holder: holder.toLowerCase(), nonce: 1 })
      .onConflictDoUpdate({
        target: [sandboxNonces.chainId, sandboxNonces.holder],
        set: { nonce: sql`${sandboxNonces.nonce} + 1` },
      })
      .returning({ nonce: sandboxNonces.nonce });
    return (row?.nonce ?? 1) - 1;
  }

  // --- holders and signing --------------------------------------------------------------------

  masterHolder(wallet: WalletRow): Holder {
    return {
      wallet,
      chain: this.catalog.blockchainOf(wallet),
      address: getAddress(wallet.address),
      derivationPath: wallet.derivationPath,
    };
  }

  childHolder(wallet: WalletRow, child: AddressRow): Holder {
    return {
      wallet,
      chain: this.catalog.blockchainOf(wallet),
      address: getAddress(child.address),
      child,
      derivationPath: child.derivationPath,
    };
  }

  account(holder: Holder): PrivateKeyAccount {
    if (!holder.derivationPath) {
      throw new HttpError(
        422,
        `Address ${holder.address} is an external (whitelisted) address; the service holds no key for it`,
      );
    }
    return this.keys.account(holder.derivationPath);
  }

  gasPrice(chain: BlockchainRow): bigint {
    return BigInt(chain.gasPriceWei);
  }

  feeFor(chain: BlockchainRow, gasUsed: bigint): bigint {
    return gasUsed * this.gasPrice(chain);
  }

  /** A signed EIP-1559 transaction from the holder; consumes a nonce like a real wallet would. */
  async signRaw(
    q: AnyDb,
    holder: Holder,
    call: { to: Address; value?: bigint; data?: Hex; gas: bigint },
  ): Promise<{ serialized: Hex; hash: Hex }> {
    const account = this.account(holder);
    const nonce = await this.nextNonce(q, holder.chain.chainId, holder.address);
    const gasPrice = this.gasPrice(holder.chain);
    const serialized = await account.signTransaction({
      type: 'eip1559',
      chainId: holder.chain.chainId,
      nonce,
      to: call.to,
      value: call.value ?? 0n,
      data: call.data,
      gas: call.gas,
      maxFeePerGas: gasPrice * 2n,
      maxPriorityFeePerGas: gasPrice / 10n || 1n,
    });
    return { serialized, hash: keccak256(serialized) };
  }

  /** The call that moves `amount` of `asset` to `to`: a value transfer, or an ERC-20 transfer. */
  transferCall(
    asset: AssetRow,
    to: Address,
    amount: bigint,
  ): { to: Address; value?: bigint; data?: Hex; gas: bigint } {
    if (asset.address === zeroAddress) return { to, value: amount, gas: GAS.nativeTransfer };
    return {
      to: getAddress(asset.address),
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
      gas: GAS.tokenTransfer,
    };
  }

  // --- transactions ---------------------------------------------------------------------------

  newBody(wallet: WalletRow, asset: AssetRow | undefined, amount: bigint | undefined): TransactionBody {
    const chain = this.catalog.blockchainOf(wallet);
    const body = emptyBody(wallet.network, chain.chainId);
    if (asset) {
      body.tokenAddress = asset.address === zeroAddress ? null : asset.address;
      body.rateUSD = asset.usdPrice;
      if (amount !== undefined) {
        body.amountUSD = usdValue(amount, asset.decimals, asset.usdPrice);
        body.amountPaid = formatUnits(amount, asset.decimals);
      }
    }
    return body;
  }

  async insertTransaction(q: AnyDb, values: Omit<TransactionInsert, 'id' | 'createdAt' | 'updatedAt'>) {
    const at = this.stamp();
    const [row] = await q
      .insert(sandboxTransactions)
      .values({ id: randomUUID(), createdAt: at, updatedAt: at, ...values })
      .returning();
    if (!row) throw new Error('insert returned nothing');
    return row;
  }

  async updateTransaction(
    q: AnyDb,
    row: TransactionRow,
    changes: Partial<TransactionInsert>,
  ): Promise<TransactionRow> {
    const [next] = await q
      .update(sandboxTransactions)
      .set({ ...changes, updatedAt: this.stamp() })
      .where(eq(sandboxTransactions.id, row.id))
      .returning();
    if (!next) throw new Error(`transaction ${row.id} vanished`);
    return next;
  }

  serialize(row: TransactionRow) {
    return transactionApi(this.catalog, row);
  }

  /** Queues a delivery of `event` for the transaction as it is now; delivery happens off the request path. */
  async queueWebhook(q: AnyDb, row: TransactionRow, event: string): Promise<void> {
    const at = this.stamp();
    await q.insert(sandboxWebhookLogs).values({
      id: randomUUID(),
      walletId: row.walletId,
      transactionId: row.id,
      event,
      url: this.options.webhookUrl,
      attempts: 0,
      status: 'queued',
      response: null,
      payload: this.serialize(row),
      nextAttemptAt: at,
      createdAt: at,
      updatedAt: at,
    });
    this.options.onWebhookQueued();
  }
}

/** `<type>.<outcome>` in the service's style; the spec names deposit.success, deposit.swept.success, withdraw.success. */
export function eventFor(row: TransactionRow): string | null {
  if (row.status === 'PENDING') return null;
  const outcome = row.status === 'SUCCESS' ? 'success' : 'failed';
  switch (row.type) {
    case 'DEPOSIT': {
      const body = row.body as TransactionBody;
      if (body.assetSwept) return 'deposit.swept.success';
      return `deposit.${outcome}`;
    }
    case 'WITHDRAW':
      return `withdraw.${outcome}`;
    case 'SWAP':
      return `swap.${outcome}`;
    case 'CUSTOM_SMART_CONTRACT':
      return `custom-smart-contract.${outcome}`;
    case 'SIGNED':
      return `signed.${outcome}`;
    case 'SALVAGE':
      return `salvage.${outcome}`;
    default:
      return null;
  }
}
