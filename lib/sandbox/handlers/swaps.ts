import 'server-only';
// #20 a swap from a child address, at the sandbox's rates for the chosen order.
import { formatUnits, getAddress } from 'viem';
import { schemas, swapInput } from '@/lib/custody/schemas';
import { invalid } from '../context';
import { GAS } from '../core';
import { parseAmount } from '../money';
import { quoteSwap, SWAP_SPREAD_BPS, usdPrice } from '../rates';
import * as req from '../requests';
import { endpoint } from './endpoint';
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
    async handle({ core }, { wallet, params, body }) {
      const child = addressOf(core, wallet, params.addressId);
      const holder = core.childHolder(wallet, child);
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
      const amount = parseAmount(body.amount, from.decimals, from.symbol);
      if (!amount.ok) throw invalid(amount.message);
      const quote = quoteSwap(from, target.asset, amount.value, order);
      if (quote.toAmount <= 0n) throw invalid('Amount is too small to swap');
      const toHolder = target.wallet.id === wallet.id ? holder.address : getAddress(target.wallet.address);
      const txBody = core.newBody(wallet, from, amount.value);
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
      return { data: core.serialize(row), message: 'Swap transaction created successfully' };
    },
  }),
];
