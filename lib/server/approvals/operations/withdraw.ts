import 'server-only';
// Withdrawals from the master wallet (#12) or a child address (#13) as an operation kind of the approval
// engine; the review is shared with sign-only withdrawals (withdraw-sign.ts).
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { DESTINATION_POLICY_OFF_WARNING, type ReviewBookEntry } from '@/lib/approvals/address-book';
import { type KnownAddress, lookAlikeOf, lookAlikeWarning } from '@/lib/approvals/look-alike';
import { DEFAULT_EXPIRY_SECONDS, DEFAULT_THRESHOLD_USD } from '@/lib/approvals/policy';
import type { ReviewItem, WithdrawalReview } from '@/lib/approvals/withdrawals';
import { isMissingEndpoint } from '@/lib/custody';
import type { Transaction } from '@/lib/custody/schemas';
import { operationRequests } from '@/lib/db/schema';
import { formatAssetAmount } from '@/lib/format';
import { addressKey } from '@/lib/validation/addresses';
import { subtractDecimal, sumDecimals } from '@/lib/validation/amounts';
import { duplicateRecipients, MAX_RECIPIENTS, type WithdrawalPayload } from '@/lib/validation/withdrawals';
import {
  checkDestinations,
  consoleEntries,
  consolePaidAddresses,
  describeDestinationProblems,
} from '../../address-book';
import type { ReviewContext, SubmitContext, SubmittedItem } from '../types';
import { sumUsd, type UsdAmount, usdNumber, usdOf } from '../usd';
import { reviewSource, reviewWallet } from './review-parts';
import { defineOperation, LocalRefusal, type ReviewBuilt } from './types';

/** Spec, Limits: 30 seconds per operation when an estimate gives no arrival time. */
const ARRIVAL_SECONDS_PER_ITEM = 30;

const decimalString = z.string().regex(/^\d+(\.\d+)?$/);
export const withdrawalPayloadSchema: z.ZodType<WithdrawalPayload> = z.object({
  source: z.union([
    z.object({ kind: z.literal('master') }),
    z.object({ kind: z.literal('address'), addressId: z.string().min(1) }),
  ]),
  items: z
    .array(
      z.object({
        assetId: z.string().min(1),
        symbol: z.string().min(1),
        decimals: z.number().int().min(0).max(36),
        address: z.string().min(1),
        amount: decimalString,
        reference: z.string().optional(),
        note: z.string().optional(),
        metadata: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .min(1)
    .max(MAX_RECIPIENTS),
});

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'unknown error';
}

export async function settle<T>(
  promise: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
}

/** The wallet's console address book: a recipient imitating one of its entries is a look-alike. */
async function consoleEntriesOf(ctx: ReviewContext, walletId: string) {
  return (await consoleEntries(ctx.db, walletId)).map((e) => ({ address: e.address, name: e.name }));
}

/** How many of the console's own past withdrawals are read for their recipients (newest first). */
const PAST_REQUESTS_READ = 500;

/**
 * The addresses a look-alike recipient may imitate: the wallet's address book, whitelisted addresses and beneficiaries, the
 * recipients of its recent withdrawals at the service, and those of the console's own submitted withdrawals.
 */
export async function knownAddresses(
  ctx: ReviewContext,
  walletId: string,
  from: {
    whitelisted: Array<{ address: string; name?: string | null }>;
    beneficiaries: Array<{ name?: string | null }>;
    paid: Transaction[];
  },
): Promise<KnownAddress[]> {
  const named = (kind: string, name: string | null | undefined) => (name ? `${kind} “${name}”` : kind);
  const known: KnownAddress[] = [
    // The console's own address book first: a look-alike names the entry people chose by name.
    ...(await consoleEntriesOf(ctx, walletId)).map((e) => ({
      address: e.address,
      label: named('address book', e.name),
    })),
    ...from.whitelisted.map((a) => ({ address: a.address, label: named('whitelisted', a.name) })),
    ...from.beneficiaries.map((b) => ({
      address: String((b as { address?: string }).address ?? ''),
      label: named('beneficiary', b.name),
    })),
  ];
  for (const address of await consolePaidAddresses(ctx.db, walletId, PAST_REQUESTS_READ))
    known.push({ address, label: 'paid before by the console' });
  // The service's own list last: a look-alike names the console's record of a payment first.
  known.push(...from.paid.map((t) => ({ address: t.recipientAddress ?? '', label: 'paid before' })));
  return known.filter((k) => k.address);
}

/**
 * An item's references in its review: the upstream one (the requester's own when they typed one, else derived
 * from the request), and the typed one on its own, so that a preview, whose derived references are never used,
 * still shows what was typed.
 */
export function itemReferences(
  typed: string | undefined,
  upstream: string | undefined,
): Pick<ReviewItem, 'reference' | 'clientReference'> {
  return { reference: upstream ?? '', clientReference: typed?.trim() || null };
}

export async function buildWithdrawalReview(
  kind: 'withdraw' | 'withdrawSign',
  payload: WithdrawalPayload,
  ctx: ReviewContext,
): Promise<ReviewBuilt<WithdrawalReview>> {
  const { client, walletId } = ctx;
  // Money goes only to address book entries past their cooling-off (the destination policy; a cooling-off holds
  // even with it off): refused here, whatever the form allowed. The engine asks again at the final approval and
  // before sending.
  const destinations = await checkDestinations(
    ctx.db,
    walletId,
    payload.items.map((i) => i.address),
    ctx.now,
  );
  if (destinations.problems.length > 0)
    throw new LocalRefusal(
      `${describeDestinationProblems(destinations.problems, payload.items.length > 1 ? (i) => `Recipient ${i + 1}` : undefined)} Nothing was requested.`,
    );
  const book = destinations.entries;
  const addressId = payload.source.kind === 'address' ? payload.source.addressId : undefined;
  const [wallet, child, balances, fee, externals, beneficiaries, recent] = await Promise.all([
    client.wallets.get({ walletId }).then((r) => r.data),
    addressId ? client.addresses.get({ walletId, addressId }).then((r) => r.data) : Promise.resolve(null),
    ctx.balances(addressId),
    settle(withdrawalFee(client, walletId, addressId, payload.items)),
    // The same read as the form's address list (one upstream call, shared): whitelisted ones are EXTERNAL.
    settle(client.wallets.listAddresses({ walletId, limit: 100 })),
    settle(client.beneficiaries.list({ walletId, limit: 100 })),
    settle(client.wallets.listTransactions({ walletId, type: 'WITHDRAW', limit: 100 })),
  ]);
  const native = balances.find((b) => b.isNative);
  const nativeSymbol = native?.symbol ?? wallet.blockchain.symbol.toUpperCase();
  const nativeDecimals = native?.decimals ?? 18;
  const priceOf = (assetId: string) => balances.find((b) => b.assetId === assetId)?.priceUsd ?? null;

  const externalByAddress = new Map(
    (externals.ok ? externals.value.data : [])
      .filter((a) => a.type === 'EXTERNAL')
      .map((a) => [addressKey(a.address), a] as const),
  );
  const beneficiaryByAddress = new Map(
    (beneficiaries.ok ? beneficiaries.value.data : [])
      .filter((b) => !b.deletedAt)
      .map((b) => [addressKey(String((b as { address?: string }).address ?? '')), b] as const),
  );
  const paidBefore = new Set(
    (recent.ok ? (recent.value.data as Transaction[]) : [])
      .filter((t) => t.status !== 'FAILED')
      .map((t) => addressKey(t.recipientAddress ?? '')),
  );
  // Payments the console sent itself count too (the upstream list above is one page).
  const consolePaid = await Promise.all(
    payload.items.map(async (item) => {
      const rows = await ctx.db
        .select({ id: operationRequests.id })
        .from(operationRequests)
        .where(
          sql`${operationRequests.walletId} = ${walletId} and ${operationRequests.status} in ('SUBMITTED','SUCCESS') and ${operationRequests.payload} @> ${JSON.stringify({ items: [{ address: item.address }] })}::jsonb`,
        )
        .limit(1);
      return rows.length > 0;
    }),
  );

  const known = await knownAddresses(ctx, walletId, {
    whitelisted: (externals.ok ? externals.value.data : []).filter((a) => a.type === 'EXTERNAL'),
    beneficiaries: (beneficiaries.ok ? beneficiaries.value.data : []).filter((b) => !b.deletedAt),
    paid: recent.ok ? (recent.value.data as Transaction[]).filter((t) => t.status !== 'FAILED') : [],
  });

  let feeItems: Array<string | null> = payload.items.map(() => null);
  let feeTotal: string | null = null;
  let feeTotalUsd: number | null = null;
  let nativeBefore: string | null = native?.balance ?? null;
  // A gasless child address's fees are paid by the master wallet: the estimate's native balance is the
  // master's, the child's own native balance pays only the native amounts it sends.
  const gasless = child?.configurations?.enableGaslessWithdraw === true;
  let payerBalance: string | null = null;
  let arrival: number | null = payload.items.length * ARRIVAL_SECONDS_PER_ITEM;
  let feeError: string | null = null;
  if (fee.ok) {
    const f = fee.value;
    if (f.form === 'single') {
      feeItems = [f.data.networkFee];
      feeTotal = f.data.networkFee;
      if (f.payerKnown) payerBalance = f.data.nativeBalance;
    } else {
      feeItems = payload.items.map((_, i) => f.fees.find((x) => x.index === i)?.networkFee ?? null);
      feeTotal = f.totalNetworkFee;
      feeTotalUsd = Number(f.totalNetworkFeeInUSD);
      if (f.payerKnown) payerBalance = f.nativeBalance;
      arrival = f.estimatedArrivalTime;
      if (f.errors.length) feeError = f.errors.map((e) => e.message ?? 'estimate failed').join('; ');
    }
  } else {
    feeError = fee.error;
  }
  // A child address holding none of the chain's coin gives no price for it; the master wallet usually does (and
  // pays the fees of a gasless address in it).
  const nativePrice =
    native?.priceUsd ??
    (addressId ? ((await ctx.balances()).find((b) => b.isNative)?.priceUsd ?? null) : null);
  if (feeTotal !== null && feeTotalUsd === null) feeTotalUsd = usdNumber(usdOf(feeTotal, nativePrice));

  const duplicates = duplicateRecipients(
    payload.items.map((i) => ({ address: i.address, assetId: i.assetId })),
  );
  const itemsUsd: Array<UsdAmount | null> = payload.items.map((item) =>
    usdOf(item.amount, priceOf(item.assetId)),
  );
  const items: ReviewItem[] = payload.items.map((item, index) => {
    const key = addressKey(item.address);
    const external = externalByAddress.get(key);
    const aml = external?.configurations?.aml ?? null;
    const warnings: string[] = [];
    if (!paidBefore.has(key) && !consolePaid[index]) warnings.push('First payment to this address');
    const entry = book.get(key);
    const beneficiary = beneficiaryByAddress.get(key);
    const inBook: ReviewBookEntry | null = entry
      ? { name: entry.name, source: 'console', since: entry.addressSince.toISOString() }
      : external
        ? {
            name: external.name ?? 'Whitelisted address',
            source: 'whitelisted',
            since: external.createdAt ?? null,
          }
        : beneficiary
          ? { name: beneficiary.name, source: 'beneficiary', since: beneficiary.createdAt ?? null }
          : null;
    if (!inBook)
      warnings.push(
        'Outside the address book: not whitelisted and not a beneficiary, and no address book entry names it',
      );
    const imitated = lookAlikeOf(item.address, known);
    if (imitated) warnings.push(lookAlikeWarning(imitated));
    if (aml && !['success', 'passed'].includes(String(aml.status).toLowerCase()))
      warnings.push(`AML screening: ${aml.status}`);
    const dup = duplicates.find((g) => g.includes(index));
    if (dup)
      warnings.push(
        `Same recipient and asset as row ${dup
          .filter((i) => i !== index)
          .map((i) => i + 1)
          .join(', ')}`,
      );
    const feeItem = feeItems[index] ?? null;
    return {
      index,
      address: item.address,
      amount: item.amount,
      symbol: item.symbol,
      assetId: item.assetId,
      usd: usdNumber(itemsUsd[index] ?? null),
      networkFee: feeItem,
      networkFeeUsd: feeItem === null ? null : usdNumber(usdOf(feeItem, nativePrice)),
      ...itemReferences(item.reference, ctx.references[index]),
      note: item.note ?? null,
      metadata: item.metadata ?? null,
      aml: aml
        ? { status: String(aml.status), provider: String(aml.provider), message: String(aml.message) }
        : null,
      book: inBook,
      warnings,
    };
  });

  const bySymbol = new Map<string, { decimals: number; amounts: string[]; assetId: string }>();
  for (const item of payload.items) {
    const entry = bySymbol.get(item.symbol) ?? {
      decimals: item.decimals,
      amounts: [],
      assetId: item.assetId,
    };
    entry.amounts.push(item.amount);
    bySymbol.set(item.symbol, entry);
  }
  const byAsset = [...bySymbol.entries()].map(([symbol, e]) => ({
    symbol,
    amount: sumDecimals(e.amounts, e.decimals),
    assetId: e.assetId,
    decimals: e.decimals,
  }));
  const warnings: string[] = [];
  if (wallet.network === 'mainnet') warnings.push('Mainnet: this moves real funds.');
  if (!destinations.policy.destinationPolicy) warnings.push(DESTINATION_POLICY_OFF_WARNING);
  if (kind === 'withdrawSign')
    warnings.push('Sign only: the signed transactions are returned, nothing is broadcast.');
  for (const total of byAsset) {
    const held = balances.find((b) => b.assetId === total.assetId);
    if (held && Number(subtractDecimal(held.balance, total.amount, total.decimals)) < 0)
      warnings.push(
        `The ${total.symbol} total of ${formatAssetAmount(total.amount, total.decimals, total.symbol)} exceeds the source's balance of ${formatAssetAmount(held.balance, total.decimals, total.symbol)}.`,
      );
  }
  const native_ = nativeAfterSending({
    sourceBefore: nativeBefore,
    payerBalance,
    gasless,
    feeTotal: kind === 'withdraw' ? feeTotal : null,
    nativeSpent: payload.items.filter((i) => i.symbol === nativeSymbol).map((i) => i.amount),
    symbol: nativeSymbol,
    decimals: nativeDecimals,
  });
  nativeBefore = native_.before;
  const nativeAfter = native_.after;
  warnings.push(...native_.warnings);
  if (duplicates.length) warnings.push('Some rows pay the same asset to the same address.');

  const amountUsd = sumUsd(itemsUsd);
  const review: WithdrawalReview = {
    kind,
    wallet: reviewWallet(wallet),
    source: reviewSource(wallet, child),
    items,
    totals: { usd: usdNumber(amountUsd), byAsset: byAsset.map(({ symbol, amount }) => ({ symbol, amount })) },
    fee: {
      symbol: nativeSymbol,
      total: feeTotal,
      totalUsd: feeTotalUsd,
      error: feeError,
      paidBy: gasless ? 'masterWallet' : 'source',
    },
    nativeBalance: {
      symbol: nativeSymbol,
      before: nativeBefore,
      after: nativeAfter,
      beforeUsd: nativeBefore === null ? null : usdNumber(usdOf(nativeBefore, nativePrice)),
    },
    estimatedArrivalSeconds: kind === 'withdraw' ? arrival : null,
    warnings,
    builtAt: new Date().toISOString(),
  };
  const count = payload.items.length;
  const summary = `${kind === 'withdrawSign' ? 'Sign ' : ''}${count} ${count === 1 ? 'recipient' : 'recipients'}: ${byAsset
    .map((a) => formatAssetAmount(a.amount, a.decimals, a.symbol))
    .join(' + ')}`;
  return { review, summary, amountUsd };
}

export function upstreamItems(payload: WithdrawalPayload, ctx: SubmitContext) {
  return payload.items.map((item, index) => ({
    id: item.assetId,
    address: item.address,
    amount: item.amount,
    reference: ctx.references[index]!,
    ...(item.note ? { note: item.note } : {}),
    // The reference (the requester's own, or one derived from the request) is the upstream reference; the
    // request id travels in metadata.
    metadata: { ...(item.metadata ?? {}), consoleRequestId: ctx.requestId },
  }));
}

/**
 * The source's native balance before and after sending `nativeSpent` and paying `feeTotal`, with a warning for
 * each shortfall. `payerBalance` is the fee estimate's native balance: the source's own, or for a gasless child
 * address the master wallet's, which pays its fees.
 */
export function nativeAfterSending(input: {
  sourceBefore: string | null;
  payerBalance: string | null;
  gasless: boolean;
  feeTotal: string | null;
  nativeSpent: string[];
  symbol: string;
  decimals: number;
}): { before: string | null; after: string | null; warnings: string[] } {
  const { gasless, feeTotal, payerBalance, symbol, decimals } = input;
  const before = !gasless && payerBalance !== null ? payerBalance : input.sourceBefore;
  const charged = [...(feeTotal && !gasless ? [feeTotal] : []), ...input.nativeSpent];
  const after = before === null ? null : subtractDecimal(before, sumDecimals(charged, decimals), decimals);
  const warnings: string[] = [];
  if (after?.startsWith('-'))
    warnings.push(
      gasless
        ? `Not enough ${symbol} for the amounts.`
        : `Not enough ${symbol} for the amounts and network fees.`,
    );
  if (
    gasless &&
    feeTotal !== null &&
    payerBalance !== null &&
    subtractDecimal(payerBalance, feeTotal, decimals).startsWith('-')
  )
    warnings.push(
      `The master wallet pays this gasless address's network fees and holds ${formatAssetAmount(payerBalance, decimals, symbol)}, less than the ${formatAssetAmount(feeTotal, decimals, symbol)} they need.`,
    );
  return { before, after, warnings };
}

/**
 * The network fee of withdrawing `items`: from the master wallet through #15, from a child address through its
 * documented child form, whose native balance is the gas payer's (`payerKnown`). A service without the child
 * form (an unknown path) is asked #15 instead, whose native balance is then the master wallet's, not the payer's.
 */
export async function withdrawalFee(
  client: ReviewContext['client'],
  walletId: string,
  addressId: string | undefined,
  items: ReadonlyArray<{ assetId: string; address: string; amount: string }>,
) {
  const body = { assets: items.map((i) => ({ id: i.assetId, address: i.address, amount: i.amount })) };
  if (addressId) {
    try {
      return {
        ...(await client.withdraw.networkFeeFromAddress({ walletId, addressId }, body)),
        payerKnown: true,
      };
    } catch (error) {
      // Only the form itself missing falls back; the service's own "not found" for the address stands.
      if (!isMissingEndpoint(error)) throw error;
    }
  }
  return { ...(await client.withdraw.networkFee({ walletId }, body)), payerKnown: !addressId };
}

/** The items of a withdrawal the answer's transactions stand for, placed by their references. */
export function submittedItems(
  transactions: readonly Transaction[],
  references: readonly string[],
  from = 0,
): SubmittedItem[] {
  const items: SubmittedItem[] = [];
  for (const [position, tx] of transactions.entries()) {
    const at = references.indexOf(tx.reference);
    const index = from + (at >= 0 ? at : position);
    if (items.some((item) => item.index === index)) continue;
    items.push({
      index,
      transactionId: tx.id,
      hash: tx.hash,
      status: tx.status,
      confirmations: tx.confirmations,
    });
  }
  return items;
}

export const withdrawOperation = defineOperation<'withdraw', WithdrawalPayload>({
  key: 'withdraw',
  permissions: { request: 'withdraw.request', approve: 'withdraw.approve' },
  defaultPolicy: { approvals: 1, thresholdUsd: DEFAULT_THRESHOLD_USD, expirySeconds: DEFAULT_EXPIRY_SECONDS },
  // Followed until the transaction of every recipient settles upstream.
  finality: 'settlement',
  finalWhenFound: () => null,
  payloadSchema: withdrawalPayloadSchema,
  itemCount: (p) => p.items.length,
  addressIdOf: (p) => (p.source.kind === 'address' ? p.source.addressId : null),
  buildReview: (payload, ctx) => buildWithdrawalReview('withdraw', payload, ctx),
  clientReferences: (p) => p.items.map((i) => i.reference),
  referenceField: (index) => `rows.${index}.reference`,
  async submit(payload: WithdrawalPayload, ctx) {
    const body = { assets: upstreamItems(payload, ctx) };
    const answer =
      payload.source.kind === 'address'
        ? await ctx.client.withdraw.fromAddress(
            { walletId: ctx.walletId, addressId: payload.source.addressId },
            body,
          )
        : await ctx.client.withdraw.fromMaster({ walletId: ctx.walletId }, body);
    // Every item the answer names (the first alone from a service without the `batch` extension: the others
    // are then found by their references).
    return { items: submittedItems(answer.transactions, ctx.references) };
  },
});
