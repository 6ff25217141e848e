import 'server-only';
// Swaps from a child address (#20) as an operation kind of the approval engine.
import { parseUnits } from 'viem';
import { z } from 'zod';
import { DEFAULT_EXPIRY_SECONDS, DEFAULT_THRESHOLD_USD } from '@/lib/approvals/policy';
import type {
  SwapQuoteComparison,
  SwapQuoteView,
  SwapRequote,
  SwapResult,
  SwapReview,
} from '@/lib/approvals/swaps';
import { type CustodyClient, CustodyError, isMissingEndpoint } from '@/lib/custody';
import { ORDER_EXPLANATIONS } from '@/lib/custody/constants';
import { formatAssetAmount } from '@/lib/format';
import { exceedsBalance, subtractDecimal } from '@/lib/validation/amounts';
import { expectedRate, expectedToAmount, SWAP_ORDERS, type SwapPayload } from '@/lib/validation/swaps';
import { pricesFrom } from '../balances';
import type { ReviewContext, SubmitContext } from '../types';
import { usdNumber, usdOf } from '../usd';
import { reviewAddress, reviewWallet } from './review-parts';
import { type BuiltReview, defineOperation, SubmitRefusal } from './types';

const swapPayloadSchema: z.ZodType<SwapPayload> = z
  .object({
    addressId: z.string().min(1),
    fromAssetId: z.string().min(1),
    fromSymbol: z.string().min(1),
    fromDecimals: z.number().int().min(0).max(36),
    toAssetId: z.string().min(1),
    toSymbol: z.string().min(1),
    toDecimals: z.number().int().min(0).max(36),
    amount: z.string().regex(/^\d+(\.\d+)?$/),
    order: z.enum(SWAP_ORDERS),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((p) => p.fromAssetId !== p.toAssetId, { message: 'From and to assets must differ.' });

async function buildSwapReview(payload: SwapPayload, ctx: ReviewContext): Promise<BuiltReview<'swap'>> {
  const { client, walletId } = ctx;
  const [wallet, child, childBalances, masterBalances, quoted] = await Promise.all([
    client.wallets.get({ walletId }).then((r) => r.data),
    client.addresses.get({ walletId, addressId: payload.addressId }).then((r) => r.data),
    ctx.balances(payload.addressId),
    ctx.balances(),
    fetchQuote(client, walletId, payload).then(
      (quote) => ({ quote, note: null }),
      (error: unknown) => ({ quote: null, note: quoteProblem(error) }),
    ),
  ]);
  // A child address that holds none of an asset gives no price; the master wallet usually does.
  const prices = pricesFrom(childBalances, masterBalances);
  const held = childBalances.find((b) => b.assetId === payload.fromAssetId);
  const rate = expectedRate(prices[payload.fromSymbol] ?? null, prices[payload.toSymbol] ?? null);
  const amountUsd = usdOf(payload.amount, prices[payload.fromSymbol] ?? null);
  const warnings: string[] = [];
  if (wallet.network === 'mainnet') warnings.push('Mainnet: this moves real funds.');
  if (
    held &&
    exceedsBalance(parseUnits(payload.amount, payload.fromDecimals), held.balance, payload.fromDecimals)
  )
    warnings.push(
      `The amount exceeds the address's balance of ${formatAssetAmount(held.balance, payload.fromDecimals, payload.fromSymbol)}.`,
    );
  if (rate === null) warnings.push('No expected rate: a USD price is missing for one of the assets.');
  const review: SwapReview = {
    kind: 'swap',
    wallet: reviewWallet(wallet),
    source: reviewAddress(child),
    from: {
      assetId: payload.fromAssetId,
      symbol: payload.fromSymbol,
      decimals: payload.fromDecimals,
      amount: payload.amount,
      balance: held?.balance ?? null,
    },
    to: { assetId: payload.toAssetId, symbol: payload.toSymbol, decimals: payload.toDecimals },
    order: payload.order,
    orderExplanation: ORDER_EXPLANATIONS[payload.order],
    expectedRate: rate,
    expectedToAmount: expectedToAmount(payload.amount, rate),
    amountUsd: usdNumber(amountUsd),
    metadata: payload.metadata ?? null,
    warnings,
    builtAt: new Date().toISOString(),
    quote: quoted.quote,
    quoteNote: quoted.note,
    feeSymbol: wallet.blockchain.symbol.toUpperCase(),
  };
  return {
    review,
    summary: `Swap ${formatAssetAmount(payload.amount, payload.fromDecimals, payload.fromSymbol)} to ${payload.toSymbol}`,
    amountUsd,
  };
}

export const swapOperation = defineOperation({
  key: 'swap',
  permissions: { request: 'swap.request', approve: 'swap.approve' },
  // A swap is priced like a withdrawal of what it sells: the same threshold.
  defaultPolicy: { approvals: 1, thresholdUsd: DEFAULT_THRESHOLD_USD, expirySeconds: DEFAULT_EXPIRY_SECONDS },
  // Followed until the swap's transaction settles upstream.
  finality: 'settlement',
  finalWhenFound: () => null,
  payloadSchema: swapPayloadSchema,
  itemCount: () => 1,
  addressIdOf: (p) => p.addressId,
  buildReview: buildSwapReview,
  async submit(payload: SwapPayload, ctx) {
    const requote = await checkQuote(payload, ctx);
    const answer = await ctx.client.swaps.execute(
      { walletId: ctx.walletId, addressId: payload.addressId },
      {
        amount: payload.amount,
        fromAssetId: payload.fromAssetId,
        toAssetId: payload.toAssetId,
        order: payload.order,
        reference: ctx.references[0]!,
        metadata: { ...(payload.metadata ?? {}), consoleRequestId: ctx.requestId },
      },
    );
    const tx = answer.data;
    const result: SwapResult = {
      kind: 'swap',
      transactionId: tx.id,
      rate: tx.rate ?? null,
      toAmount: tx.toAmount ?? null,
      toAsset: tx.toAsset
        ? { symbol: tx.toAsset.symbol, name: tx.toAsset.name ?? null, address: tx.toAsset.address ?? null }
        : tx.toCurrency
          ? { symbol: tx.toCurrency, name: null, address: null }
          : null,
      message: answer.message,
      requote,
    };
    return {
      items: [
        { index: 0, transactionId: tx.id, hash: tx.hash, status: tx.status, confirmations: tx.confirmations },
      ],
      result,
    };
  },
});

/** The service's quote for the payload (the quote extension), as the console keeps it. */
async function fetchQuote(
  client: CustodyClient,
  walletId: string,
  payload: SwapPayload,
): Promise<SwapQuoteView> {
  const { data } = await client.swaps.quote(
    { walletId, addressId: payload.addressId },
    {
      amount: payload.amount,
      fromAssetId: payload.fromAssetId,
      toAssetId: payload.toAssetId,
      order: payload.order,
    },
  );
  return {
    rate: data.rate,
    toAmount: data.toAmount,
    minAmount: data.minAmount,
    slippage: data.slippage,
    networkFee: data.networkFee,
    networkFeeUsd: data.networkFeeInUSD ?? null,
    expiresAt: data.expiresAt,
  };
}

/** Why a review has no quote, in a sentence. */
function quoteProblem(error: unknown): string {
  if (isMissingEndpoint(error)) {
    return 'The custody service gives no swap quotes; the expected figures below come from USD prices.';
  }
  if (error instanceof CustodyError && !error.outcomeUnknown)
    return `The service gave no quote: ${error.message}`;
  return 'The service did not answer for a quote; the expected figures below come from USD prices.';
}

function approvedQuote(review: Record<string, unknown>): SwapQuoteView | null {
  const quote = (review as Partial<SwapReview>).quote;
  return quote && typeof quote.expiresAt === 'string' ? quote : null;
}

/**
 * An approved quote that has expired is asked for again before anything is sent: the swap goes only if the
 * service still gives at least the minimum the approvers saw. Nothing is sent when the fresh quote is lower
 * or cannot be read, and the request can be sent again by a person.
 */
async function checkQuote(payload: SwapPayload, ctx: SubmitContext): Promise<SwapRequote | null> {
  const before = approvedQuote(ctx.review);
  if (!before || Date.parse(before.expiresAt) > Date.now()) return null;
  let after: SwapQuoteView;
  try {
    after = await fetchQuote(ctx.client, ctx.walletId, payload);
  } catch (error) {
    const reason = error instanceof CustodyError ? error.message : 'no answer';
    throw new SubmitRefusal(
      `The approved quote had expired and a new one could not be read (${reason}); nothing was sent.`,
    );
  }
  const change = quoteChange(payload, before, after);
  if (!change.holds) {
    throw new SubmitRefusal(
      `The approved quote had expired; the new quote gives ${formatAssetAmount(after.toAmount, payload.toDecimals, payload.toSymbol)}, below the approved minimum of ${formatAssetAmount(before.minAmount, payload.toDecimals, payload.toSymbol)}. Nothing was sent; request the swap again to approve the new quote.`,
    );
  }
  return { before, after, difference: change.difference };
}

/** How a fresh quote compares with the approved one: the change in amount out, and whether the minimum holds. */
function quoteChange(payload: SwapPayload, before: SwapQuoteView, after: SwapQuoteView) {
  const decimals = payload.toDecimals;
  return {
    difference: subtractDecimal(after.toAmount, before.toAmount, decimals),
    holds: parseUnits(after.toAmount, decimals) >= parseUnits(before.minAmount, decimals),
  };
}

/** The service's quote now, beside the one the request's approvers see (an approver checks before approving). */
export async function compareSwapQuote(
  client: CustodyClient,
  walletId: string,
  payload: SwapPayload,
  review: Record<string, unknown>,
): Promise<SwapQuoteComparison> {
  const before = approvedQuote(review);
  const after = await fetchQuote(client, walletId, payload);
  if (!before) return { before, after, difference: null, holds: null };
  return { before, after, ...quoteChange(payload, before, after) };
}
