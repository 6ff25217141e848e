import 'server-only';
// The chain simulation: each tick mines one block per chain; pending transactions are included
// (their plan runs against the ledger), gain confirmations, then settle; deposits sweep and settle.
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import { formatUnits, getAddress, type Hex, keccak256, stringToHex, zeroAddress } from 'viem';
import type { AnyDb } from '@/lib/db/types';
import type { AssetRow } from './context';
import { eventFor, type Holder, type Plan, type SandboxCore, type TransactionRow } from './core';
import { sandboxBlockchains, sandboxRules, sandboxTransactions } from './db/schema';
import { ContractRevertError, executeErc20 } from './erc20';
import { InsufficientBalanceError, parseAmount } from './money';
import { quoteSwap } from './rates';
import type { TransactionBody } from './serialize';

/** A failure that settles the transaction as FAILED with this reason. */
class SettlementFailure extends Error {}

export async function mineBlock(core: SandboxCore): Promise<void> {
  const rows = await core.db
    .update(sandboxBlockchains)
    .set({ blockNumber: sql`${sandboxBlockchains.blockNumber} + 1` })
    .returning();
  for (const row of rows) core.catalog.blockchains.set(row.id, row);
}

export async function processPending(core: SandboxCore): Promise<void> {
  const pending = await core.db
    .select()
    .from(sandboxTransactions)
    // The seeded history's stuck rows never move: left to the database (sandbox_tx_unsettled_idx), so a large
    // history (SANDBOX_SEED_TRANSACTIONS) costs a block nothing.
    .where(
      and(
        eq(sandboxTransactions.status, 'PENDING'),
        sql`coalesce(${sandboxTransactions.plan} ->> 'kind', 'stuck') <> 'stuck'`,
      ),
    )
    .orderBy(asc(sandboxTransactions.createdAt), asc(sandboxTransactions.id));
  for (const row of pending) {
    const plan = row.plan as Plan | null;
    if (!plan || plan.kind === 'stuck') continue;
    try {
      if (row.blockNumber === null) await include(core, row, plan);
      else await confirm(core, row, plan);
    } catch (error) {
      core.options.logger.error({ err: error, transactionId: row.id }, 'sandbox settlement failed');
    }
  }
  const unswept = await core.db
    .select()
    .from(sandboxTransactions)
    .where(
      and(
        eq(sandboxTransactions.type, 'DEPOSIT'),
        eq(sandboxTransactions.status, 'SUCCESS'),
        sql`${sandboxTransactions.plan}->>'sweep' = 'pending'`,
      ),
    )
    .orderBy(asc(sandboxTransactions.createdAt));
  for (const row of unswept) {
    try {
      await sweep(core, row);
    } catch (error) {
      core.options.logger.error({ err: error, transactionId: row.id }, 'sandbox sweep failed');
    }
  }
}

/** Transactions the simulation will still move (stuck seed history excluded). */
export async function countUnsettled(core: SandboxCore): Promise<number> {
  const [row] = await core.db
    .select({ n: sql<number>`count(*)::int` })
    .from(sandboxTransactions)
    .where(
      or(
        and(
          eq(sandboxTransactions.status, 'PENDING'),
          sql`coalesce(${sandboxTransactions.plan}->>'kind', 'stuck') <> 'stuck'`,
        ),
        and(
          eq(sandboxTransactions.status, 'SUCCESS'),
          sql`${sandboxTransactions.plan}->>'sweep' = 'pending'`,
        ),
      ),
    );
  return row?.n ?? 0;
}

function blockHash(chainId: number, block: number): Hex {
  return keccak256(stringToHex(`sandbox-block:${chainId}:${block}`));
}

function holderFor(core: SandboxCore, row: TransactionRow, address: string): Holder | undefined {
  const wallet = core.catalog.wallets.get(row.walletId);
  if (!wallet) return undefined;
  const owner = core.catalog.ownerOf(wallet.blockchainId, address);
  if (!owner) return undefined;
  return owner.address ? core.childHolder(owner.wallet, owner.address) : core.masterHolder(owner.wallet);
}

function assetOf(core: SandboxCore, id: string): AssetRow {
  const asset = core.catalog.assets.get(id);
  if (!asset) throw new Error(`unknown asset ${id}`);
  return asset;
}

/** Refuses the settlement when `holder` holds less than `amount` of a (non-gas) asset. */
async function requireBalance(core: SandboxCore, q: AnyDb, holder: string, asset: AssetRow, amount: bigint) {
  const have = await core.balance(q, asset.id, holder);
  if (have < amount) {
    throw new SettlementFailure(
      `Insufficient balance: ${formatUnits(have, asset.decimals)} ${asset.symbol} available, ${formatUnits(amount, asset.decimals)} ${asset.symbol} required`,
    );
  }
}

async function debitWithGas(
  core: SandboxCore,
  q: AnyDb,
  holder: string,
  asset: AssetRow,
  amount: bigint,
  native: AssetRow,
  fee: bigint,
  gasPayer?: string,
) {
  if (gasPayer && gasPayer.toLowerCase() !== holder.toLowerCase())
    return debitSponsored(core, q, holder, asset, amount, native, fee, gasPayer);
  const needNative = asset.id === native.id ? amount + fee : fee;
  const haveNative = await core.balance(q, native.id, holder);
  if (asset.id !== native.id) {
    await requireBalance(core, q, holder, asset, amount);
  }
  if (haveNative < needNative) {
    throw new SettlementFailure(
      asset.id === native.id
        ? `Insufficient balance: ${formatUnits(haveNative, 18)} ${native.symbol} available, ${formatUnits(needNative, 18)} ${native.symbol} required including gas`
        : `Insufficient native balance for gas: ${formatUnits(haveNative, 18)} ${native.symbol} available, ${formatUnits(fee, 18)} ${native.symbol} required`,
    );
  }
  if (asset.id !== native.id) await core.adjust(q, asset.id, holder, -amount);
  await core.adjust(q, native.id, holder, -needNative);
}

/** A gasless withdrawal: the holder (a child address) pays the amount, the master wallet pays the gas. */
async function debitSponsored(
  core: SandboxCore,
  q: AnyDb,
  holder: string,
  asset: AssetRow,
  amount: bigint,
  native: AssetRow,
  fee: bigint,
  gasPayer: string,
) {
  await requireBalance(core, q, holder, asset, amount);
  const payerNative = await core.balance(q, native.id, gasPayer);
  if (payerNative < fee) {
    throw new SettlementFailure(
      `The master wallet cannot pay the gas for this gasless withdrawal: ${formatUnits(payerNative, 18)} ${native.symbol} available, ${formatUnits(fee, 18)} ${native.symbol} required`,
    );
  }
  await core.adjust(q, asset.id, holder, -amount);
  await core.adjust(q, native.id, gasPayer, -fee);
}

/** Runs the plan against the ledger in one database transaction; a failure leaves the ledger untouched. */
async function include(core: SandboxCore, row: TransactionRow, plan: Plan): Promise<void> {
  const wallet = core.catalog.wallets.get(row.walletId);
  if (!wallet) return;
  const chain = core.catalog.blockchainOf(wallet);
  const native = core.catalog.nativeAsset(chain.id);
  const block = chain.blockNumber;
  const gasPrice = core.gasPrice(chain);
  const body = { ...(row.body as TransactionBody) };
  try {
    await core.db.transaction(async (q) => {
      let hash: Hex;
      let gasUsed = 0n;
      switch (plan.kind) {
        case 'transfer': {
          const asset = assetOf(core, plan.assetId);
          const amount = BigInt(plan.amount);
          gasUsed = BigInt(plan.gasUsed);
          await debitWithGas(core, q, plan.from, asset, amount, native, gasUsed * gasPrice, plan.gasPayer);
          await core.adjust(q, asset.id, plan.to, amount);
          const holder = holderFor(core, row, plan.from);
          hash = holder?.derivationPath
            ? (await core.signRaw(q, holder, core.transferCall(asset, getAddress(plan.to), amount))).hash
            : keccak256(stringToHex(`sandbox-tx:${row.id}`));
          break;
        }
        case 'deposit': {
          await core.adjust(q, plan.assetId, plan.to, BigInt(plan.amount));
          hash = keccak256(stringToHex(`sandbox-deposit:${row.id}`));
          break;
        }
        case 'swap': {
          const from = assetOf(core, plan.fromAssetId);
          gasUsed = BigInt(plan.gasUsed);
          await debitWithGas(core, q, plan.holder, from, BigInt(plan.amount), native, gasUsed * gasPrice);
          await core.adjust(q, plan.toAssetId, plan.toHolder, BigInt(plan.toAmount));
          hash = keccak256(stringToHex(`sandbox-swap:${row.id}`));
          break;
        }
        case 'contract': {
          gasUsed = BigInt(plan.gasUsed);
          const token = core.catalog.tokenAt(chain.id, plan.contract);
          if (!token)
            throw new SettlementFailure(`No contract is deployed at ${plan.contract} on ${chain.name}`);
          await debitWithGas(core, q, plan.from, native, 0n, native, gasUsed * gasPrice);
          try {
            await executeErc20(
              {
                address: getAddress(token.address),
                name: token.name,
                symbol: token.symbol,
                decimals: token.decimals,
              },
              core.tokenLedger(q, token),
              getAddress(plan.from),
              plan.data,
            );
          } catch (error) {
            if (error instanceof ContractRevertError)
              throw new SettlementFailure(`Execution reverted: ${error.message}`);
            throw error;
          }
          const holder = holderFor(core, row, plan.from);
          hash = holder?.derivationPath
            ? (
                await core.signRaw(q, holder, {
                  to: getAddress(token.address),
                  data: plan.data,
                  gas: gasUsed,
                })
              ).hash
            : keccak256(stringToHex(`sandbox-call:${row.id}`));
          break;
        }
        default:
          return;
      }
      body.blockHash = blockHash(chain.chainId, block);
      if (gasUsed > 0n) {
        body.gasUsed = Number(gasUsed);
        body.gasPrice = formatUnits(gasPrice, 18);
        body.gasFee = formatUnits(gasUsed * gasPrice, 18);
      }
      await core.updateTransaction(q, row, { hash, blockNumber: block, confirmations: 0, body });
    });
  } catch (error) {
    if (!(error instanceof SettlementFailure || error instanceof InsufficientBalanceError)) throw error;
    const reason = error instanceof InsufficientBalanceError ? 'Insufficient balance' : error.message;
    const failed = await core.updateTransaction(core.db, row, {
      status: 'FAILED',
      confirmations: 0,
      body: { ...body, confirmed: false, reason },
    });
    await queueOutcome(core, failed);
  }
}

async function confirm(core: SandboxCore, row: TransactionRow, plan: Plan): Promise<void> {
  const wallet = core.catalog.wallets.get(row.walletId);
  if (!wallet || row.blockNumber === null) return;
  const chain = core.catalog.blockchainOf(wallet);
  const confirmations = chain.blockNumber - row.blockNumber;
  if (confirmations < core.options.confirmations) {
    await core.updateTransaction(core.db, row, { confirmations });
    return;
  }
  const body = { ...(row.body as TransactionBody), confirmed: true };
  const settled = await core.updateTransaction(core.db, row, { status: 'SUCCESS', confirmations, body });
  await queueOutcome(core, settled);
  if (plan.kind === 'deposit' && plan.sweep === 'skip') {
    const child = row.addressId ? core.catalog.addresses.get(row.addressId) : undefined;
    if (child) await runAutoSettlement(core, settled, core.childHolder(wallet, child));
  }
}

async function queueOutcome(core: SandboxCore, row: TransactionRow) {
  const event = eventFor(row);
  if (event) await core.queueWebhook(core.db, row, event);
}

/** Moves a settled deposit from the child address to the master wallet; the master pays the gas. */
async function sweep(core: SandboxCore, row: TransactionRow): Promise<void> {
  const plan = row.plan as Extract<Plan, { kind: 'deposit' }>;
  const wallet = core.catalog.wallets.get(row.walletId);
  if (!wallet) return;
  const chain = core.catalog.blockchainOf(wallet);
  const native = core.catalog.nativeAsset(chain.id);
  const asset = assetOf(core, plan.assetId);
  const amount = BigInt(plan.amount);
  const fee = core.feeFor(chain, asset.id === native.id ? 21_000n : 65_000n);
  const body = { ...(row.body as TransactionBody) };
  const master = getAddress(wallet.address);
  let swept = false;
  try {
    await core.db.transaction(async (q) => {
      await core.adjust(q, asset.id, plan.to, -amount);
      await core.adjust(q, native.id, master, -fee);
      await core.adjust(q, asset.id, master, amount);
      const child = row.addressId ? core.catalog.addresses.get(row.addressId) : undefined;
      const signed = child?.derivationPath
        ? await core.signRaw(q, core.childHolder(wallet, child), core.transferCall(asset, master, amount))
        : { hash: keccak256(stringToHex(`sandbox-sweep:${row.id}`)) };
      Object.assign(body, {
        assetSwept: true,
        assetSweptAmount: formatUnits(amount, asset.decimals),
        assetSweptGasFee: formatUnits(fee, 18),
        assetSweptAt: core.stamp().toISOString(),
        assetSweptHash: signed.hash,
        assetSweptRecipientAddress: master,
        assetSweptSenderAddress: getAddress(plan.to),
        assetSweptResponse: 'Asset swept successfully',
        reason: 'Asset swept to master wallet',
      } satisfies Partial<TransactionBody>);
      await core.updateTransaction(q, row, { body, plan: { ...plan, sweep: 'done' } });
      swept = true;
    });
  } catch (error) {
    if (!(error instanceof InsufficientBalanceError)) throw error;
    Object.assign(body, {
      assetSwept: false,
      assetSweptResponse: 'Sweep failed: insufficient balance for the sweep or its gas',
      reason: 'Sweep failed: insufficient balance for the sweep or its gas',
    });
    const failed = await core.updateTransaction(core.db, row, { body, plan: { ...plan, sweep: 'done' } });
    await core.queueWebhook(core.db, failed, 'deposit.swept.failed');
    return;
  }
  if (swept) {
    const [fresh] = await core.db
      .select()
      .from(sandboxTransactions)
      .where(eq(sandboxTransactions.id, row.id));
    if (!fresh) return;
    await core.queueWebhook(core.db, fresh, 'deposit.swept.success');
    await runAutoSettlement(core, fresh, core.masterHolder(wallet));
  }
}

interface RuleSource {
  assets: string[];
  blockchain: string;
  minAmount: string;
  maxAmount: string;
}
interface RuleDestination {
  address: string;
  asset: string;
  blockchain: string;
}

/**
 * The first active rule whose source matches the deposit (address rules before wallet rules)
 * forwards it: same asset as a WITHDRAW, another asset as a SWAP delivered to the destination.
 */
async function runAutoSettlement(core: SandboxCore, deposit: TransactionRow, from: Holder): Promise<void> {
  const wallet = from.wallet;
  const asset = deposit.assetId ? core.catalog.assets.get(deposit.assetId) : undefined;
  if (!asset || !deposit.amount) return;
  const walletLevel = (wallet.autoSettlement as { isActive?: boolean }).isActive === true;
  const rules = await core.db
    .select()
    .from(sandboxRules)
    .where(
      and(
        eq(sandboxRules.walletId, wallet.id),
        eq(sandboxRules.isActive, true),
        deposit.addressId
          ? or(eq(sandboxRules.addressId, deposit.addressId), isNull(sandboxRules.addressId))
          : isNull(sandboxRules.addressId),
      ),
    )
    .orderBy(sql`${sandboxRules.addressId} is null`, asc(sandboxRules.createdAt));
  const amount = parseAmount(deposit.amount, asset.decimals);
  if (!amount.ok) return;
  const chain = from.chain;
  for (const rule of rules) {
    if (rule.addressId === null && !walletLevel) continue;
    const source = rule.source as RuleSource;
    const destination = rule.destination as RuleDestination;
    if (!source.assets.some((s) => s.toUpperCase() === asset.symbol.toUpperCase())) continue;
    if (source.blockchain && source.blockchain.toLowerCase() !== chain.slug) continue;
    const min = parseAmount(source.minAmount, asset.decimals);
    const max = parseAmount(source.maxAmount, asset.decimals);
    if (min.ok && amount.value < min.value) continue;
    if (max.ok && amount.value > max.value) continue;
    const target = core.catalog
      .walletAssetsOf(wallet.id)
      .find((a) => a.asset.symbol.toUpperCase() === destination.asset.toUpperCase())?.asset;
    if (!target) continue;
    const metadata = { autoSettlementRuleId: rule.id, depositId: deposit.id };
    const note = `Auto-settlement: ${rule.name}`;
    if (target.id === asset.id) {
      const body = core.newBody(wallet, asset, amount.value);
      body.metadata = metadata;
      body.note = note;
      await core.insertTransaction(core.db, {
        walletId: wallet.id,
        addressId: from.child?.id ?? null,
        reference: `as-${deposit.reference}`.slice(0, 40),
        type: 'WITHDRAW',
        status: 'PENDING',
        assetId: asset.id,
        amount: deposit.amount,
        senderAddress: from.address,
        recipientAddress: getAddress(destination.address),
        body,
        plan: {
          kind: 'transfer',
          from: from.address,
          to: destination.address,
          assetId: asset.id,
          amount: amount.value.toString(),
          gasUsed: (asset.address === zeroAddress ? 21_000n : 65_000n).toString(),
        } satisfies Plan,
      });
    } else {
      const quote = quoteSwap(asset, target, amount.value, rule.order);
      const body = core.newBody(wallet, asset, amount.value);
      Object.assign(body, {
        metadata,
        note,
        rate: quote.rate,
        toAmount: formatUnits(quote.toAmount, target.decimals),
        toCurrency: target.symbol,
        toAssetId: target.id,
        toWalletId: wallet.id,
      });
      await core.insertTransaction(core.db, {
        walletId: wallet.id,
        addressId: from.child?.id ?? null,
        reference: `as-${deposit.reference}`.slice(0, 40),
        type: 'SWAP',
        status: 'PENDING',
        assetId: asset.id,
        amount: deposit.amount,
        senderAddress: from.address,
        recipientAddress: getAddress(destination.address),
        body,
        plan: {
          kind: 'swap',
          holder: from.address,
          fromAssetId: asset.id,
          amount: amount.value.toString(),
          toAssetId: target.id,
          toAmount: quote.toAmount.toString(),
          toHolder: destination.address,
          gasUsed: '150000',
        } satisfies Plan,
      });
    }
    return;
  }
}
