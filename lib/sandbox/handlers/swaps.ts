import 'server-only';
// #20 a swap from a child address, at the sandbox's rates for the chosen order; extensions: its quote, and
// both from the master wallet (Blockradar's Master Wallet Get Quote and Execute).
import { formatUnits, getAddress } from 'viem';
import { schemas, swapInput, swapQuoteInput } from '@/lib/custody/schemas';
import { invalid } from '../context';
import { ARRIVAL_SECONDS_PER_OPERATION, GAS, type Holder, type SandboxCore } from '../core';
import { parseAmount, usdCents, usdValue } from '../money';
import { quoteSwap, SWAP_SPREAD_BPS, usdPrice } from '../rates';
import * as req from '../requests';
import { endpoint, type Result } from './endpoint';
import { addressOf, newReference, ORDERS, walletAssetOf } from './shared';

export const swapEndpoints = [
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/swaps/execute',
    summary: '#20 Execute a swap',
    body: req.swapBody,
    documentedBody: swapInput,
    response: { data: schemas.transaction },
    movesMoney: true,
    handle({ core }, { wallet, params, body }) {
      const child = addressOf(core, wallet, params.addressId);
      return executeSwap(core, core.childHolder(wallet, child), body);
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/swaps/quote',
    summary: 'Extension: quote a swap from a child address (amount out, minimum, fee, expiry)',
    body: req.swapQuoteBody,
    documentedBody: swapQuoteInput,
    response: { data: schemas.swapQuote },
    handle({ core }, { wallet, params, body }) {
      const child = addressOf(core, wallet, params.addressId);
      return quote(core, core.childHolder(wallet, child), body);
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/swaps/execute',
    summary: "Extension: execute a swap from the master wallet (#20's master form)",
    body: req.swapBody,
    documentedBody: swapInput,
    response: { data: schemas.transaction },
    movesMoney: true,
    handle({ core }, { wallet, body }) {
      return executeSwap(core, core.masterHolder(wallet), body);
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/swaps/quote',
    summary: 'Extension: quote a swap from the master wallet (amount out, minimum, fee, expiry)',
    body: req.swapQuoteBody,
    documentedBody: swapQuoteInput,
    response: { data: schemas.swapQuote },
    handle({ core }, { wallet, body }) {
      return quote(core, core.masterHolder(wallet), body);
    },
  }),
];

/** #20 and its master form: a SWAP transaction the chain settles at the quoted amount out. */
async function executeSwap(core: SandboxCore, holder: Holder, body: req.SwapBody): Promise<Result> {
  const { wallet } = holder;
  const { from, target, amount, quote } = priceSwap(core, holder, body);
  const toHolder = target.wallet.id === wallet.id ? holder.address : getAddress(target.wallet.address);
  const txBody = core.newBody(wallet, from, amount);
  Object.assign(txBody, {
    rate: quote.rate,
    toAmount: formatUnits(quote.toAmount, target.asset.decimals),
    toCurrency: target.asset.symbol,
    toAssetId: target.asset.id,
    toWalletId: target.wallet.id,
    metadata: body.metadata ?? null,
  });
  const row = await core.insertTransaction(core.db, {
    walletId: wallet.id,
    addressId: holder.child?.id ?? null,
    reference: body.reference || newReference(),
    type: 'SWAP',
    status: 'PENDING',
    assetId: from.id,
    amount: formatUnits(amount, from.decimals),
    senderAddress: holder.address,
    recipientAddress: toHolder,
    confirmations: 0,
    body: txBody,
    plan: {
      kind: 'swap',
      holder: holder.address,
      fromAssetId: from.id,
      amount: amount.toString(),
      toAssetId: target.asset.id,
      toAmount: quote.toAmount.toString(),
      toHolder,
      gasUsed: GAS.swap.toString(),
    },
  });
  return { data: core.serialize(row), message: 'Swap transaction created successfully' };
}

/**
 * A quote from the holder. The asset ids are echoed as the caller sent them (the wallet-asset ids a client
 * holds), not swapped for the plain asset ids. `impact` is the venue's spread in percent and `impactInUSD`
 * what it costs; the native balance is the holder's, which pays the network fee.
 */
async function quote(core: SandboxCore, holder: Holder, body: req.SwapQuoteBody): Promise<Result> {
  const { from, target, amount, order, quote } = priceSwap(core, holder, body);
  const native = core.catalog.nativeAsset(holder.chain.id);
  const nativeBalance = await core.balance(core.db, native.id, holder.address);
  const fee = core.feeFor(holder.chain, GAS.swap);
  const slippage = QUOTE_SLIPPAGE_BPS[order] ?? 50n;
  const minAmount = (quote.toAmount * (10_000n - slippage)) / 10_000n;
  const spread = SWAP_SPREAD_BPS[order] ?? 0n;
  const valueIn = usdCents(amount, from.decimals, from.usdPrice);
  const valueOut = usdCents(quote.toAmount, target.asset.decimals, target.asset.usdPrice);
  return {
    data: {
      fromAssetId: body.fromAssetId,
      toAssetId: body.toAssetId,
      amount: formatUnits(amount, from.decimals),
      toAmount: formatUnits(quote.toAmount, target.asset.decimals),
      minAmount: formatUnits(minAmount, target.asset.decimals),
      rate: quote.rate,
      slippage: formatUnits(slippage, 2),
      impact: formatUnits(spread, 2),
      impactInUSD: formatUnits(valueIn > valueOut ? valueIn - valueOut : 0n, 2),
      order,
      networkFee: formatUnits(fee, native.decimals),
      networkFeeInUSD: usdValue(fee, native.decimals, native.usdPrice),
      nativeBalance: formatUnits(nativeBalance, native.decimals),
      nativeBalanceInUSD: usdValue(nativeBalance, native.decimals, native.usdPrice),
      // The sandbox's venue charges nothing beyond its spread and the network fee.
      transactionFee: '0',
      estimatedArrivalTime: ARRIVAL_SECONDS_PER_OPERATION,
      expiresAt: new Date(core.nowMs() + core.options.quoteTtlMs).toISOString(),
    },
    message: 'Swap quote fetched successfully',
  };
}

/** The most the amount out may fall below the quote before the venue refuses, per order, in basis points. */
const QUOTE_SLIPPAGE_BPS: Readonly<Record<string, bigint>> = {
  RECOMMENDED: 50n,
  FASTEST: 100n,
  CHEAPEST: 100n,
  NO_SLIPPAGE: 0n,
};

/** The checks a swap and its quote share, and the venue's price for it. */
function priceSwap(
  core: SandboxCore,
  holder: Holder,
  body: { amount: string | number; fromAssetId: string; toAssetId: string; order?: string | undefined },
) {
  const { wallet } = holder;
  core.account(holder);
  const order = (body.order ?? 'RECOMMENDED').toUpperCase();
  if (!(order in SWAP_SPREAD_BPS)) throw invalid(`order must be one of ${ORDERS.join(', ')}`);
  const from = walletAssetOf(core, wallet, body.fromAssetId);
  const target = core.catalog.resolveAnyAsset(body.toAssetId);
  if (!target) throw invalid(`Asset ${body.toAssetId} is not an asset of this business`);
  if (target.asset.id === from.id) throw invalid('fromAssetId and toAssetId must be different assets');
  if (!usdPrice(from.symbol) || !usdPrice(target.asset.symbol)) {
    throw invalid(`No rate for ${from.symbol} to ${target.asset.symbol}`);
  }
  const parsed = parseAmount(body.amount, from.decimals, from.symbol);
  if (!parsed.ok) throw invalid(parsed.message);
  const quote = quoteSwap(from, target.asset, parsed.value, order);
  if (quote.toAmount <= 0n) throw invalid('Amount is too small to swap');
  return { from, target, amount: parsed.value, order, quote };
}
