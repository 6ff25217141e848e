import 'server-only';
// Withdrawals: #12 from the master wallet, #13 from a child address, #14 sign only, #15 network fees; extensions:
// sign-only and network fees from a child address (Blockradar documents both).
import { formatUnits, zeroAddress } from 'viem';
import { z } from 'zod';
import { schemas, withdrawBodyInput, withdrawNetworkFeeBodyInput } from '@/lib/custody/schemas';
import { type AddressConfigurations, HttpError, invalid, type WalletRow } from '../context';
import { ARRIVAL_SECONDS_PER_OPERATION, GAS, type Holder, type Plan, type SandboxCore } from '../core';
import { parseAmount, usdValue } from '../money';
import * as req from '../requests';
import { endpoint, type Result } from './endpoint';
import { addressOf, batchBounds, checkAddress, messageOf, newReference, walletAssetOf } from './shared';

function checkWithdrawal(core: SandboxCore, wallet: WalletRow, item: req.WithdrawalItem) {
  const asset = walletAssetOf(core, wallet, item.id);
  const to = checkAddress(item.address, 'recipient address');
  const amount = parseAmount(item.amount, asset.decimals, asset.symbol);
  if (!amount.ok) throw invalid(amount.message);
  return { asset, to, amount: amount.value };
}

/**
 * The master wallet's address when it pays the network fee: a withdrawal from a child address created with
 * `enableGaslessWithdraw` (Blockradar: the master wallet pays the gas for the child's withdrawals).
 */
function gasPayerOf(holder: Holder): string | undefined {
  const config = holder.child?.configurations as AddressConfigurations | undefined;
  return config?.enableGaslessWithdraw ? holder.wallet.address : undefined;
}

async function createWithdrawals(
  core: SandboxCore,
  holder: Holder,
  items: req.WithdrawalItem[],
): Promise<Result> {
  batchBounds(items, 'assets');
  const checked = items.map((item, index) => {
    try {
      return { item, ...checkWithdrawal(core, holder.wallet, item) };
    } catch (error) {
      if (error instanceof HttpError && items.length > 1) throw invalid(`assets[${index}]: ${error.message}`);
      throw error;
    }
  });
  if (!holder.derivationPath) core.account(holder);
  const gasPayer = gasPayerOf(holder);
  const rows = await core.db.transaction(async (q) => {
    const out = [];
    for (const { item, asset, to, amount } of checked) {
      const body = core.newBody(holder.wallet, asset, amount);
      body.note = item.note ?? null;
      body.metadata = item.metadata ?? null;
      if (gasPayer)
        body.feeMetadata = { gasless: true, feePaidBy: 'MASTER_WALLET', feePayerAddress: gasPayer };
      const recipient = core.catalog.ownerOf(holder.chain.id, to);
      out.push(
        await core.insertTransaction(q, {
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
            ...(gasPayer ? { gasPayer } : {}),
          } satisfies Plan,
        }),
      );
    }
    return out;
  });
  // One Transaction (spec #12): a batch's first item's, with every item's under the `batch` extension, so the
  // caller learns each id without searching by reference.
  const first = core.serialize(rows[0]!);
  return {
    data: rows.length > 1 ? { ...first, batch: rows.map((row) => core.serialize(row)) } : first,
    message: 'Withdrawal request initiated successfully',
  };
}

export const withdrawalEndpoints = [
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/withdraw',
    summary: '#12 Withdraw from the master wallet',
    body: req.withdrawBody,
    documentedBody: withdrawBodyInput,
    response: { data: schemas.withdrawal },
    movesMoney: true,
    handle({ core }, { wallet, body }) {
      return createWithdrawals(core, core.masterHolder(wallet), body.assets);
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/withdraw',
    summary: '#13 Withdraw from a child address',
    body: req.withdrawBody,
    documentedBody: withdrawBodyInput,
    response: { data: schemas.withdrawal },
    movesMoney: true,
    handle({ core }, { wallet, params, body }) {
      const child = addressOf(core, wallet, params.addressId);
      return createWithdrawals(core, core.childHolder(wallet, child), body.assets);
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/withdraw/sign',
    summary: '#14 Sign withdrawals without broadcasting',
    body: req.withdrawBody,
    documentedBody: withdrawBodyInput,
    response: { data: z.union([schemas.withdrawSignResult, schemas.transaction]) },
    movesMoney: true,
    handle({ core }, { wallet, body }) {
      return signWithdrawals(core, core.masterHolder(wallet), body);
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/withdraw/sign',
    summary: "Extension: sign withdrawals from a child address without broadcasting (#14's child form)",
    body: req.withdrawBody,
    documentedBody: withdrawBodyInput,
    response: { data: z.union([schemas.withdrawSignResult, schemas.transaction]) },
    movesMoney: true,
    handle({ core }, { wallet, params, body }) {
      const child = addressOf(core, wallet, params.addressId);
      return signWithdrawals(core, core.childHolder(wallet, child), body);
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/withdraw/network-fee',
    summary: '#15 Estimate withdrawal network fees',
    body: req.feeBody,
    documentedBody: withdrawNetworkFeeBodyInput,
    response: { data: z.union([schemas.withdrawNetworkFeeSingle, schemas.withdrawNetworkFeeBatch]) },
    handle({ core }, { wallet, body }) {
      return estimateWithdrawals(core, core.masterHolder(wallet), body.assets);
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/withdraw/network-fee',
    summary: "Extension: estimate network fees of withdrawals from a child address (#15's child form)",
    body: req.feeBody,
    documentedBody: withdrawNetworkFeeBodyInput,
    response: { data: z.union([schemas.withdrawNetworkFeeSingle, schemas.withdrawNetworkFeeBatch]) },
    handle({ core }, { wallet, params, body }) {
      const child = addressOf(core, wallet, params.addressId);
      return estimateWithdrawals(core, core.childHolder(wallet, child), body.assets);
    },
  }),
];

/** #14 and its child form: each item signed by the holder's key, stored as SIGNED, nothing broadcast. */
async function signWithdrawals(
  core: SandboxCore,
  holder: Holder,
  body: { assets: req.WithdrawalItem[]; single?: true | undefined },
): Promise<Result> {
  batchBounds(body.assets, 'assets');
  const { wallet } = holder;
  const success: Array<{ id: string; hash: string; signedTransaction: string }> = [];
  const errors: Array<{ index: number; id: string; message: string }> = [];
  let signedRow: Awaited<ReturnType<SandboxCore['insertTransaction']>> | undefined;
  for (const [index, item] of body.assets.entries()) {
    try {
      const { asset, to, amount } = checkWithdrawal(core, wallet, item);
      const signed = await core.signRaw(core.db, holder, core.transferCall(asset, to, amount));
      const txBody = core.newBody(wallet, asset, amount);
      Object.assign(txBody, {
        confirmed: true,
        signedTransaction: signed.serialized,
        note: item.note ?? null,
        metadata: item.metadata ?? null,
      });
      const row = await core.insertTransaction(core.db, {
        walletId: wallet.id,
        addressId: holder.child?.id ?? null,
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
      await core.queueWebhook(core.db, row, 'signed.success');
      success.push({ id: row.id, hash: signed.hash, signedTransaction: signed.serialized });
      signedRow = row;
    } catch (error) {
      errors.push({ index, id: item.id, message: messageOf(error) });
    }
  }
  if (body.single) {
    // The single form answers with the signed transaction, or with the reason it could not be signed.
    if (!signedRow) throw invalid(errors[0]!.message);
    return { data: core.serialize(signedRow), message: 'Withdrawal signed successfully' };
  }
  return {
    data: { success, errors },
    message: `Batch withdrawal signed (${success.length}/${body.assets.length} successful)`,
  };
}

/**
 * #15 and its child form. The native balance shown is that of whoever pays the network fee: the holder, or
 * the master wallet for a gasless child address.
 */
async function estimateWithdrawals(
  core: SandboxCore,
  holder: Holder,
  items: Array<{ id: string; address: string; amount: string | number }>,
): Promise<Result> {
  batchBounds(items, 'assets');
  const { wallet, chain } = holder;
  const native = core.catalog.nativeAsset(chain.id);
  const nativeBalance = await core.balance(core.db, native.id, gasPayerOf(holder) ?? holder.address);
  const nativeText = formatUnits(nativeBalance, native.decimals);
  const nativeUsd = usdValue(nativeBalance, native.decimals, native.usdPrice);
  const fees = [];
  const errors: Array<{ index: number; assetId: string; message: string }> = [];
  let total = 0n;
  for (const [index, item] of items.entries()) {
    try {
      const { asset, to, amount } = checkWithdrawal(core, wallet, item);
      const fee = core.feeFor(chain, asset.address === zeroAddress ? GAS.nativeTransfer : GAS.tokenTransfer);
      total += fee;
      fees.push({
        index,
        assetId: item.id,
        address: to,
        amount: formatUnits(amount, asset.decimals),
        networkFee: formatUnits(fee, native.decimals),
        networkFeeInUSD: usdValue(fee, native.decimals, native.usdPrice),
        transactionFee: '0',
        estimatedArrivalTime: ARRIVAL_SECONDS_PER_OPERATION,
      });
    } catch (error) {
      if (items.length === 1) throw error;
      errors.push({ index, assetId: item.id, message: messageOf(error) });
    }
  }
  const message = 'Network fee fetched successfully';
  if (items.length === 1) {
    const [fee] = fees;
    return {
      data: {
        nativeBalance: nativeText,
        nativeBalanceInUSD: nativeUsd,
        networkFee: fee!.networkFee,
        networkFeeInUSD: fee!.networkFeeInUSD,
        estimatedArrivalTime: fee!.estimatedArrivalTime,
      },
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
