import 'server-only';
// A payout file as one approval request: rows checked on upload, reviewed together, approved once, and sent in
// service batches of at most 20 (spec, Limits). Each batch is one call with its items' own references; the
// request's result records each batch's outcome as it happens, so an attempt after a refusal or a lost answer
// sends only what the service has not accepted.
import { z } from 'zod';
import { DESTINATION_POLICY_OFF_WARNING } from '@/lib/approvals/address-book';
import { lookAlikeOf, lookAlikeWarning } from '@/lib/approvals/look-alike';
import {
  batchRanges,
  PAYOUT_BATCH_SIZE,
  type PayoutBatchOutcome,
  type PayoutResult,
  type PayoutReview,
  type PayoutReviewRow,
  payoutTotals,
} from '@/lib/approvals/payouts';
import { DEFAULT_EXPIRY_SECONDS, DEFAULT_THRESHOLD_USD } from '@/lib/approvals/policy';
import { CustodyError } from '@/lib/custody';
import type { Transaction } from '@/lib/custody/schemas';
import { formatAssetAmount } from '@/lib/format';
import { addressKey } from '@/lib/validation/addresses';
import { subtractDecimal, sumDecimals } from '@/lib/validation/amounts';
import { MAX_PAYOUT_ROWS, type PayoutPayload } from '@/lib/validation/payouts';
import { duplicateRecipients } from '@/lib/validation/withdrawals';
import { checkDestinations, describeDestinationProblems } from '../../address-book';
import type { ReviewContext, SubmitContext, SubmittedItem } from '../types';
import { sumUsd, type UsdAmount, usdNumber, usdOf } from '../usd';
import { reviewSource, reviewWallet } from './review-parts';
import { defineOperation, LocalRefusal, type ReviewBuilt } from './types';
import { knownAddresses, nativeAfterSending, settle, submittedItems, withdrawalFee } from './withdraw';

const decimalString = z.string().regex(/^\d+(\.\d+)?$/);
export const payoutPayloadSchema: z.ZodType<PayoutPayload> = z.object({
  source: z.union([
    z.object({ kind: z.literal('master') }),
    z.object({ kind: z.literal('address'), addressId: z.string().min(1) }),
  ]),
  fileName: z.string().min(1).max(200),
  items: z
    .array(
      z.object({
        line: z.number().int().min(1),
        assetId: z.string().min(1),
        symbol: z.string().min(1),
        decimals: z.number().int().min(0).max(36),
        address: z.string().min(1),
        amount: decimalString,
        reference: z.string().optional(),
        label: z.string().optional(),
      }),
    )
    .min(1)
    .max(MAX_PAYOUT_ROWS),
});

const batchOutcomeSchema = z.object({
  number: z.number(),
  from: z.number(),
  to: z.number(),
  state: z.enum(['not_sent', 'submitted', 'failed', 'unknown']),
  message: z.string().nullable(),
  at: z.string().nullable(),
  linked: z.boolean(),
});
const payoutResultSchema = z.object({ batches: z.array(batchOutcomeSchema) });

/** The batches' outcomes an earlier attempt stored, or every batch waiting to be sent. */
function progressOf(previous: unknown, count: number): PayoutResult {
  const ranges = batchRanges(count);
  const stored = payoutResultSchema.safeParse(previous);
  if (stored.success && stored.data.batches.length === ranges.length) return stored.data;
  return {
    batches: ranges.map(({ from, to }, i) => ({
      number: i + 1,
      from,
      to,
      state: 'not_sent',
      message: null,
      at: null,
      linked: false,
    })),
  };
}

/** Fee estimates run a few batches at a time: a long file must not flood the service. */
const FEE_CONCURRENCY = 4;

async function inChunks<T, R>(values: T[], size: number, run: (value: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < values.length; i += size)
    out.push(...(await Promise.all(values.slice(i, i + size).map(run))));
  return out;
}

async function buildPayoutReview(
  payload: PayoutPayload,
  ctx: ReviewContext,
): Promise<ReviewBuilt<PayoutReview>> {
  const { client, walletId } = ctx;
  // A row the destination rules refuse (outside the book under the destination policy, or an entry still in its
  // cooling-off) refuses the whole file, as a withdrawal would.
  const destinations = await checkDestinations(
    ctx.db,
    walletId,
    payload.items.map((i) => i.address),
    ctx.now,
  );
  if (destinations.problems.length > 0)
    throw new LocalRefusal(
      `${describeDestinationProblems(destinations.problems, (i) => `Line ${payload.items[i]?.line ?? i + 1}`)} Nothing was requested.`,
    );
  const book = destinations.entries;
  const addressId = payload.source.kind === 'address' ? payload.source.addressId : undefined;
  const ranges = batchRanges(payload.items.length);
  const [wallet, child, balances, externals, beneficiaries, recent] = await Promise.all([
    client.wallets.get({ walletId }).then((r) => r.data),
    addressId ? client.addresses.get({ walletId, addressId }).then((r) => r.data) : Promise.resolve(null),
    ctx.balances(addressId),
    settle(client.wallets.listAddresses({ walletId, limit: 100 })),
    settle(client.beneficiaries.list({ walletId, limit: 100 })),
    settle(client.wallets.listTransactions({ walletId, type: 'WITHDRAW', limit: 100 })),
  ]);
  // One estimate per service batch (the estimate takes at most 20 items too).
  const fees = await inChunks(ranges, FEE_CONCURRENCY, ({ from, to }) =>
    settle(withdrawalFee(client, walletId, addressId, payload.items.slice(from, to))),
  );
  const native = balances.find((b) => b.isNative);
  const nativeSymbol = native?.symbol ?? wallet.blockchain.symbol.toUpperCase();
  const nativeDecimals = native?.decimals ?? 18;
  const nativePrice = native?.priceUsd ?? null;
  const priceOf = (assetId: string) => balances.find((b) => b.assetId === assetId)?.priceUsd ?? null;

  const whitelisted = (externals.ok ? externals.value.data : []).filter((a) => a.type === 'EXTERNAL');
  const externalByAddress = new Map(whitelisted.map((a) => [addressKey(a.address), a] as const));
  const liveBeneficiaries = (beneficiaries.ok ? beneficiaries.value.data : []).filter((b) => !b.deletedAt);
  const beneficiaryAddresses = new Set(
    liveBeneficiaries.map((b) => addressKey(String((b as { address?: string }).address ?? ''))),
  );
  const paid = recent.ok ? (recent.value.data as Transaction[]).filter((t) => t.status !== 'FAILED') : [];
  const known = await knownAddresses(ctx, walletId, { whitelisted, beneficiaries: liveBeneficiaries, paid });
  // Paid before: at the service (its recent list) or by the console's own submitted requests.
  const paidBefore = new Set(
    known.filter((k) => k.label.startsWith('paid before')).map((k) => addressKey(k.address)),
  );

  const feeErrors: string[] = [];
  const feeTotals: string[] = [];
  const gasless = child?.configurations?.enableGaslessWithdraw === true;
  let payerBalance: string | null = null;
  fees.forEach((fee, i) => {
    if (!fee.ok) {
      feeErrors.push(`batch ${i + 1}: ${fee.error}`);
      return;
    }
    const f = fee.value;
    if (f.form === 'single') {
      feeTotals.push(f.data.networkFee);
      if (f.payerKnown) payerBalance = f.data.nativeBalance;
    } else {
      feeTotals.push(f.totalNetworkFee);
      if (f.payerKnown) payerBalance = f.nativeBalance;
      for (const e of f.errors) feeErrors.push(`batch ${i + 1}: ${e.message ?? 'estimate failed'}`);
    }
  });
  const feeTotal = feeErrors.length === 0 ? sumDecimals(feeTotals, nativeDecimals) : null;

  const duplicates = duplicateRecipients(
    payload.items.map((i) => ({ address: i.address, assetId: i.assetId })),
  );
  const duplicateOf = new Map<number, number[]>();
  for (const group of duplicates) for (const i of group) duplicateOf.set(i, group);
  const itemsUsd: Array<UsdAmount | null> = payload.items.map((item) =>
    usdOf(item.amount, priceOf(item.assetId)),
  );
  const rows: PayoutReviewRow[] = payload.items.map((item, index) => {
    const key = addressKey(item.address);
    const external = externalByAddress.get(key);
    const aml = external?.configurations?.aml ?? null;
    const warnings: string[] = [];
    if (!paidBefore.has(key)) warnings.push('First payment to this address');
    const entry = book.get(key);
    if (!entry && !external && !beneficiaryAddresses.has(key))
      warnings.push(
        'Outside the address book: not whitelisted and not a beneficiary, and no address book entry names it',
      );
    const imitated = lookAlikeOf(item.address, known);
    if (imitated) warnings.push(lookAlikeWarning(imitated));
    if (aml && !['success', 'passed'].includes(String(aml.status).toLowerCase()))
      warnings.push(`AML screening: ${aml.status}`);
    const group = duplicateOf.get(index);
    if (group)
      warnings.push(
        `Same recipient and asset as line ${group
          .filter((i) => i !== index)
          .map((i) => payload.items[i]?.line)
          .join(', ')}`,
      );
    return {
      index,
      line: item.line,
      batch: Math.floor(index / PAYOUT_BATCH_SIZE) + 1,
      address: item.address,
      amount: item.amount,
      symbol: item.symbol,
      decimals: item.decimals,
      assetId: item.assetId,
      usd: usdNumber(itemsUsd[index] ?? null),
      reference: ctx.references[index] ?? '',
      label: item.label ?? null,
      bookName: entry?.name ?? external?.name ?? null,
      aml: aml
        ? { status: String(aml.status), provider: String(aml.provider), message: String(aml.message) }
        : null,
      warnings,
    };
  });

  const byAsset = payoutTotals(rows);
  const warnings: string[] = [];
  if (wallet.network === 'mainnet') warnings.push('Mainnet: this moves real funds.');
  if (!destinations.policy.destinationPolicy) warnings.push(DESTINATION_POLICY_OFF_WARNING);
  for (const total of byAsset) {
    const row = rows.find((r) => r.symbol === total.symbol);
    const held = balances.find((b) => b.assetId === row?.assetId);
    if (row && held && Number(subtractDecimal(held.balance, total.amount, row.decimals)) < 0)
      warnings.push(
        `The ${total.symbol} total of ${formatAssetAmount(total.amount, row.decimals, total.symbol)} exceeds the source's balance of ${formatAssetAmount(held.balance, row.decimals, total.symbol)}.`,
      );
  }
  const {
    before: nativeBefore,
    after: nativeAfter,
    ...native_
  } = nativeAfterSending({
    sourceBefore: native?.balance ?? null,
    payerBalance,
    gasless,
    feeTotal,
    nativeSpent: payload.items.filter((i) => i.symbol === nativeSymbol).map((i) => i.amount),
    symbol: nativeSymbol,
    decimals: nativeDecimals,
  });
  warnings.push(...native_.warnings);
  if (duplicates.length) warnings.push('Some rows pay the same asset to the same address.');
  const flagged = rows.filter((r) => r.warnings.some((w) => w.startsWith('Looks like'))).length;
  if (flagged)
    warnings.push(`${flagged} ${flagged === 1 ? 'row looks' : 'rows look'} like a trusted address.`);

  const amountUsd = sumUsd(itemsUsd);
  const review: PayoutReview = {
    kind: 'payout',
    fileName: payload.fileName,
    wallet: reviewWallet(wallet),
    source: reviewSource(wallet, child),
    rows,
    batches: ranges.map(({ from, to }, i) => ({ number: i + 1, from, to, rows: to - from })),
    totals: { usd: usdNumber(amountUsd), byAsset },
    fee: {
      symbol: nativeSymbol,
      total: feeTotal,
      totalUsd: feeTotal === null ? null : usdNumber(usdOf(feeTotal, nativePrice)),
      error: feeErrors.length ? feeErrors.join('; ') : null,
    },
    nativeBalance: { symbol: nativeSymbol, before: nativeBefore, after: nativeAfter },
    warnings,
    builtAt: new Date().toISOString(),
  };
  const count = payload.items.length;
  const summary = `Payout of ${count} ${count === 1 ? 'payment' : 'payments'} in ${ranges.length} ${ranges.length === 1 ? 'batch' : 'batches'}: ${byAsset
    .map((a) => {
      const decimals = rows.find((r) => r.symbol === a.symbol)?.decimals ?? 18;
      return formatAssetAmount(a.amount, decimals, a.symbol);
    })
    .join(' + ')}`;
  return { review, summary, amountUsd };
}

function upstreamBatch(payload: PayoutPayload, ctx: SubmitContext, from: number, to: number) {
  return payload.items.slice(from, to).map((item, i) => ({
    id: item.assetId,
    address: item.address,
    amount: item.amount,
    reference: ctx.references[from + i]!,
    ...(item.label ? { note: item.label } : {}),
    metadata: { consoleRequestId: ctx.requestId, payoutLine: item.line },
  }));
}

/** A lookup that failed: nothing is concluded and nothing is sent; the engine treats it as still unknown. */
function lookupFailed(batch: number, error: unknown): CustodyError {
  return new CustodyError({
    kind: 'network',
    status: 0,
    message: `Batch ${batch} could not be checked at the custody service before sending (${error instanceof Error ? error.message : 'lookup failed'}); nothing was sent.`,
    method: 'GET',
    path: '',
  });
}

async function submitPayout(payload: PayoutPayload, ctx: SubmitContext) {
  const progress = progressOf(ctx.previous, payload.items.length);
  const total = progress.batches.length;
  const learnt: SubmittedItem[] = [];
  const set = (batch: PayoutBatchOutcome, changes: Partial<PayoutBatchOutcome>) => {
    Object.assign(batch, changes, { at: new Date().toISOString() });
  };
  for (const batch of progress.batches) {
    // Accepted by the service in an earlier attempt: never sent again.
    if (batch.state === 'submitted') continue;
    if (batch.state === 'unknown') {
      // Its answer was lost: what the service has under its references is linked, not paid again.
      const found: SubmittedItem[] = [];
      try {
        for (let index = batch.from; index < batch.to; index++) {
          const look = await ctx.findItem(index);
          if (look.found) found.push(look.found);
        }
      } catch (error) {
        throw lookupFailed(batch.number, error);
      }
      if (found.length > 0) {
        set(batch, { state: 'submitted', message: null, linked: true });
        await ctx.saveProgress(progress, found);
        learnt.push(...found);
        continue;
      }
      // Nothing found: the engine sends a batch in doubt again only once "not executed" was established (by
      // lookups after the window, or by two people where no lookup can show it), so it goes out now.
    }
    const body = { assets: upstreamBatch(payload, ctx, batch.from, batch.to) };
    // Written before the call: if the console stops mid-call, the batch is looked up, never sent blind.
    set(batch, { state: 'unknown', message: 'Sent; the answer has not arrived.', linked: false });
    await ctx.saveProgress(progress, []);
    let transactions: readonly Transaction[];
    try {
      const answer =
        payload.source.kind === 'address'
          ? await ctx.client.withdraw.fromAddress(
              { walletId: ctx.walletId, addressId: payload.source.addressId },
              body,
            )
          : await ctx.client.withdraw.fromMaster({ walletId: ctx.walletId }, body);
      transactions = answer.transactions;
    } catch (error) {
      const refused = error instanceof CustodyError && !error.outcomeUnknown;
      const message = error instanceof CustodyError ? error.message : 'The call did not complete';
      set(batch, { state: refused ? 'failed' : 'unknown', message });
      await ctx.saveProgress(progress, []);
      if (refused)
        // The service refused this batch: the ones after it wait, and an approver may send them again.
        throw new CustodyError({
          kind: error.kind,
          status: error.status,
          message: `Batch ${batch.number} of ${total} was refused: ${message}`,
          method: error.method,
          path: error.path,
        });
      throw error;
    }
    // Every item of the batch the answer names (the first alone from a service without the `batch` extension:
    // the others are then found by their references).
    const items = submittedItems(transactions, ctx.references.slice(batch.from, batch.to), batch.from);
    set(batch, { state: 'submitted', message: null, linked: false });
    await ctx.saveProgress(progress, items);
    learnt.push(...items);
  }
  return { items: learnt, result: progress };
}

/** The item indexes of the batches an earlier attempt left in `state`. */
function itemsIn(previous: unknown, state: PayoutBatchOutcome['state']): number[] {
  const stored = payoutResultSchema.safeParse(previous);
  if (!stored.success) return [];
  return stored.data.batches
    .filter((b) => b.state === state)
    .flatMap((b) => Array.from({ length: b.to - b.from }, (_, i) => b.from + i));
}

export const payoutOperation = defineOperation<'payout', PayoutPayload>({
  key: 'payout',
  // A payout moves money like a withdrawal: the same people request and approve it.
  permissions: { request: 'withdraw.request', approve: 'withdraw.approve' },
  defaultPolicy: { approvals: 1, thresholdUsd: DEFAULT_THRESHOLD_USD, expirySeconds: DEFAULT_EXPIRY_SECONDS },
  finality: 'settlement',
  finalWhenFound: () => null,
  payloadSchema: payoutPayloadSchema,
  itemCount: (p) => p.items.length,
  addressIdOf: (p) => (p.source.kind === 'address' ? p.source.addressId : null),
  buildReview: (payload, ctx) => buildPayoutReview(payload, ctx),
  clientReferences: (p) => p.items.map((i) => i.reference),
  referenceField: (index) => `rows.${index}.reference`,
  inDoubt: (previous) => itemsIn(previous, 'unknown'),
  unsent: (previous) => itemsIn(previous, 'not_sent'),
  submit: submitPayout,
});
