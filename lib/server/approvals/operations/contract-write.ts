import 'server-only';
// Contract write (#16) as an operation kind of the approval engine, with what it shares with the sign-only
// contract write (#17, contract-sign.ts): payload, review, decoding and pricing (contract-pricing.ts). Both
// need the custody service's two-factor code, typed by the approver whose approval submits.
import { type AbiFunction, decodeFunctionData, formatEther, type Hex, parseTransaction } from 'viem';
import { z } from 'zod';
import { DESTINATION_POLICY_OFF_WARNING } from '@/lib/approvals/address-book';
import type {
  ContractResult,
  ContractReview,
  ContractReviewCall,
  DecodedContractTransaction,
} from '@/lib/approvals/contracts';
import { DEFAULT_EXPIRY_SECONDS, DEFAULT_THRESHOLD_USD } from '@/lib/approvals/policy';
import { CustodyError } from '@/lib/custody/errors';
import { type CallItemInput, callItemInput } from '@/lib/custody/schemas';
import { addressBookPolicyOf } from '@/lib/server/address-book';
import { readTokenUnits } from '@/lib/server/contract-tokens';
import { MAX_CONTRACT_CALLS, revalidateWireCall } from '@/lib/validation/abi';
import {
  baseUnitsOf,
  describeTokenAmount,
  hasTokenAmountParams,
  isTokenAmountParam,
  type TokenUnits,
} from '@/lib/validation/abi-units';
import { addressKey } from '@/lib/validation/addresses';
import { decodeContractCall } from '../decode';
import type { ReviewContext, SourceBalance, SubmitContext } from '../types';
import { sumUsd, usdNumber } from '../usd';
import { assetAt, type PricedCall, priceBook, priceContractCall } from './contract-pricing';
import { reviewAddress, reviewWallet } from './review-parts';
import { defineOperation, type ReviewBuilt } from './types';

export interface ContractCallsPayload {
  addressId: string;
  calls: Array<{
    address: string;
    method: string;
    abi: AbiFunction[];
    parameters: unknown[];
    /** Native coin sent with the call, in base units (wei) as decimal digits; absent: none. */
    value?: string;
  }>;
}

export const contractCallsPayloadSchema: z.ZodType<ContractCallsPayload> = z
  .object({
    addressId: z.string().min(1),
    calls: z
      .array(
        z.object({
          address: z.string().min(1),
          method: z.string().min(1),
          abi: z.array(z.custom<AbiFunction>(isAbiEntry, 'Not an ABI entry.')).min(1),
          parameters: z.array(z.unknown()),
          value: z
            .string()
            .regex(/^\d{1,78}$/, 'The value is a whole number of base units.')
            .refine((v) => BigInt(v) < 2n ** 256n, 'The value does not fit a uint256.')
            .optional(),
        }),
      )
      .min(1)
      .max(MAX_CONTRACT_CALLS),
  })
  .superRefine((payload, ctx) => {
    // The same checks as the builder: a request never holds a call the upstream could misread.
    for (const [i, call] of payload.calls.entries()) {
      const v = revalidateWireCall(call);
      if (!v.ok)
        ctx.addIssue({
          code: 'custom',
          path: ['calls', i],
          message: Object.values(v.errors)[0] ?? 'Invalid call.',
        });
    }
  });

/** What the custody service takes as an ABI entry (its own schema checks the rest). */
function isAbiEntry(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string';
}

/** Calls in the custody client's shape, checked by its schema (ABI JSON keeps every key it carries). */
function wireCalls(
  calls: ContractCallsPayload['calls'],
  extra: (index: number) => { reference?: string; metadata?: Record<string, unknown> } = () => ({}),
): CallItemInput[] {
  return calls.map((call, index) =>
    callItemInput.parse({
      address: call.address,
      method: call.method,
      abi: call.abi,
      parameters: call.parameters,
      ...(call.value && call.value !== '0' ? { value: call.value } : {}),
      ...extra(index),
    }),
  );
}

/** A code is needed and none came with this submission (e.g. a thaw after a freeze): refused, resubmittable. */
export function codeMissing(): CustodyError {
  return new CustodyError({
    kind: 'http',
    status: 403,
    message: 'The two-factor code is required: an approver resubmits with the current code.',
    method: 'POST',
    path: '',
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'estimate failed';
}

function argText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export async function buildContractReview(
  kind: 'contractWrite' | 'contractSign',
  payload: ContractCallsPayload,
  ctx: ReviewContext,
): Promise<ReviewBuilt<ContractReview>> {
  const { client, walletId } = ctx;
  const [wallet, child, balances, fee, bookPolicy] = await Promise.all([
    client.wallets.get({ walletId }).then((r) => r.data),
    client.addresses.get({ walletId, addressId: payload.addressId }).then((r) => r.data),
    ctx.balances(payload.addressId),
    client.contracts
      .networkFee({ walletId }, { calls: wireCalls(payload.calls) })
      .then((value) => ({ ok: true as const, value }))
      .catch((error: unknown) => ({ ok: false as const, error: messageOf(error) })),
    addressBookPolicyOf(ctx.db),
  ]);
  const tokens = new Map<string, TokenUnits>(
    (wallet.assets ?? []).map(
      (a) => [addressKey(a.asset.address), { symbol: a.asset.symbol, decimals: a.asset.decimals }] as const,
    ),
  );
  const fnOf = (call: ContractCallsPayload['calls'][number]) =>
    call.abi.find((f) => f.name === call.method && f.inputs.length === call.parameters.length) ??
    call.abi.find((f) => f.name === call.method);
  // What each call does, read from the bytes it sends (never from the names in its ABI).
  const decoded = payload.calls.map((call) =>
    decodeContractCall({
      contract: call.address,
      abi: call.abi,
      method: call.method,
      parameters: call.parameters,
      value: BigInt(call.value ?? '0'),
    }),
  );
  // Amounts on a contract that is not a wallet asset: its own decimals() and symbol(), when it answers them
  // (shown in its units, never priced: the console has no price for it).
  const unlisted = [
    ...new Set(
      payload.calls
        .filter((call, i) => {
          const fn = fnOf(call);
          return (
            ((fn && hasTokenAmountParams(fn)) || decoded[i]?.ok) && !tokens.has(addressKey(call.address))
          );
        })
        .map((call) => addressKey(call.address)),
    ),
  ];
  const reported = new Map(
    await Promise.all(
      unlisted.map(async (key) => {
        const address = payload.calls.find((c) => addressKey(c.address) === key)?.address ?? key;
        return [key, await readTokenUnits(client, walletId, address)] as const;
      }),
    ),
  );
  const nativeSymbol = balances.find((b) => b.isNative)?.symbol ?? wallet.blockchain.symbol.toUpperCase();
  // Priced as withdrawals are: the source's balances, then the master wallet's for what the source holds none of.
  const assets = payload.calls.map((call) => assetAt(wallet, call.address));
  const needsMaster =
    assets.some((a) => a && !balances.find((b) => b.assetId === a.id)?.priceUsd) ||
    (decoded.some((d) => d.value > 0n) && !balances.find((b) => b.isNative)?.priceUsd);
  const master: SourceBalance[] = needsMaster ? await ctx.balances() : [];
  const prices = priceBook(balances, master);
  const priced: PricedCall[] = decoded.map((d, i) =>
    priceContractCall(d, {
      asset: assets[i] ?? null,
      reported: reported.get(addressKey(payload.calls[i]?.address ?? '')) ?? null,
      prices,
      nativeSymbol,
    }),
  );
  // A call the console cannot decode or price may move anything: the most approvals the policy asks.
  const highest = priced.some((p) => p.headline) ? await ctx.highestApprovals() : null;
  let feeItems: Array<string | null> = payload.calls.map(() => null);
  let feeTotal: string | null = null;
  let feeError: string | null = null;
  const callErrors = new Map<number, string>();
  if (fee.ok) {
    const f = fee.value;
    if (f.form === 'single') {
      feeItems = [f.data.fee];
      feeTotal = f.data.fee;
    } else {
      feeItems = payload.calls.map((_, i) => f.fees.find((x) => x.index === i)?.networkFee ?? null);
      feeTotal = f.totalFee;
      for (const e of f.errors)
        if (typeof e.index === 'number') callErrors.set(e.index, e.message ?? 'estimate failed');
      if (f.errors.length) feeError = `${f.errors.length} call(s) could not be estimated.`;
    }
  } else {
    feeError = fee.error;
  }
  const quorumWarnings: string[] = [];
  const reviewCalls: ContractReviewCall[] = payload.calls.map((call, index) => {
    const fn = fnOf(call);
    const warnings: string[] = [];
    const asset = tokens.get(addressKey(call.address));
    const units = asset ?? reported.get(addressKey(call.address)) ?? null;
    const price = priced[index]!;
    const amountAt = (i: number) => {
      const base = fn && units && isTokenAmountParam(fn, i) ? baseUnitsOf(call.parameters[i]) : null;
      return base === null || !units ? undefined : describeTokenAmount(base, units);
    };
    if (!asset && units && fn && (hasTokenAmountParams(fn) || price.decoded))
      warnings.push(
        `Not an asset of this wallet: ${units.symbol} and its ${units.decimals} decimals are what the contract itself reports.`,
      );
    if (price.headline && highest !== null) {
      const sentence = `${price.headline}; it needs ${highest} approvals.`;
      warnings.push(sentence);
      quorumWarnings.push(payload.calls.length > 1 ? `Call ${index + 1}: ${sentence}` : sentence);
    }
    const estimateError = callErrors.get(index);
    if (estimateError) warnings.push(`Estimate failed: ${estimateError}`);
    return {
      index,
      contract: call.address,
      token: asset?.symbol ?? null,
      method: call.method,
      args: call.parameters.map((value, i) => {
        const amount = amountAt(i);
        return {
          name: fn?.inputs[i]?.name || `argument ${i + 1}`,
          type: fn?.inputs[i]?.type ?? 'unknown',
          value: argText(value),
          ...(amount ? { amount } : {}),
        };
      }),
      networkFee: feeItems[index] ?? null,
      reference: ctx.references[index] ?? '',
      warnings,
      decoded: price.decoded,
      native: price.native,
      usd: usdNumber(price.usd),
      undecodable: price.undecodable,
      movements: price.movements,
    };
  });
  const amountUsd = sumUsd(priced.map((p) => p.usd));
  const warnings: string[] = [...quorumWarnings];
  if (wallet.network === 'mainnet') warnings.push('Mainnet: these calls act on real contracts.');
  // A decoded call pays its recipient or allows its spender: held to the address book's rules (destinations.ts).
  if (!bookPolicy.destinationPolicy && priced.some((p) => p.decoded))
    warnings.push(DESTINATION_POLICY_OFF_WARNING);
  if (kind === 'contractSign')
    warnings.push('Sign only: the signed transactions are returned, nothing is broadcast.');
  warnings.push('The approver whose approval submits types the two-factor code.');
  const review: ContractReview = {
    kind,
    wallet: reviewWallet(wallet),
    source: reviewAddress(child),
    calls: reviewCalls,
    totalUsd: usdNumber(amountUsd),
    fee: { symbol: nativeSymbol, total: feeTotal, error: feeError },
    warnings,
    builtAt: new Date().toISOString(),
  };
  const methods = [...new Set(payload.calls.map((c) => c.method))].join(', ');
  const count = payload.calls.length;
  const summary = `${kind === 'contractSign' ? 'Sign' : 'Write'} ${count} contract ${count === 1 ? 'call' : 'calls'}: ${methods}`;
  // Priced like withdrawals: the USD value meets the policy's threshold and the spending limits.
  return { review, summary, amountUsd, ...(highest === null ? {} : { minApprovals: highest }) };
}

export function upstreamCalls(payload: ContractCallsPayload, ctx: SubmitContext, withMetadata: boolean) {
  return wireCalls(payload.calls, (index) => ({
    reference: ctx.references[index]!,
    ...(withMetadata ? { metadata: { consoleRequestId: ctx.requestId } } : {}),
  }));
}

/** A signed contract transaction for people: recipient contract, value, method and arguments, nonce, gas. */
export function decodeContractTransaction(
  serialized: string,
  abi: readonly AbiFunction[],
): DecodedContractTransaction {
  try {
    const tx = parseTransaction(serialized as Hex);
    let method: string | null = null;
    let args: string[] = [];
    if (tx.data && tx.data !== '0x') {
      try {
        const call = decodeFunctionData({ abi, data: tx.data });
        method = call.functionName;
        args = (call.args ?? []).map((a) =>
          typeof a === 'bigint'
            ? a.toString()
            : typeof a === 'string'
              ? a
              : JSON.stringify(a, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
        );
      } catch {
        method = null;
      }
    }
    return {
      to: tx.to ?? null,
      value: formatEther(tx.value ?? 0n),
      nonce: tx.nonce ?? null,
      gas: tx.gas === undefined ? null : tx.gas.toString(),
      chainId: tx.chainId ?? null,
      method,
      args,
      data: tx.data ?? null,
    };
  } catch {
    return {
      to: null,
      value: '0',
      nonce: null,
      gas: null,
      chainId: null,
      method: null,
      args: [],
      data: null,
      error: 'The signed transaction could not be decoded.',
    };
  }
}

export function batchErrors(errors: Array<{ index?: number; message?: string }>) {
  return errors.map((e, n) => ({
    index: typeof e.index === 'number' ? e.index : n,
    message: e.message ?? 'The call failed.',
  }));
}

/**
 * Contract calls are priced like withdrawals and start from the same policy: four eyes, one more above the
 * USD threshold; a call the console cannot value needs that higher count (`highestApprovals` in policy.ts).
 */
export const CONTRACT_DEFAULT_POLICY = {
  approvals: 1,
  thresholdUsd: DEFAULT_THRESHOLD_USD,
  expirySeconds: DEFAULT_EXPIRY_SECONDS,
};

export const contractWriteOperation = defineOperation<'contractWrite', ContractCallsPayload>({
  key: 'contractWrite',
  permissions: { request: 'contractWrite.request', approve: 'contractWrite.approve' },
  defaultPolicy: CONTRACT_DEFAULT_POLICY,
  // Followed until every call's transaction settles upstream (a batch with no success ends on answer).
  finality: 'settlement',
  finalWhenFound: () => null,
  requiresTwoFactor: true,
  payloadSchema: contractCallsPayloadSchema,
  itemCount: (p) => p.calls.length,
  addressIdOf: (p) => p.addressId,
  buildReview: (payload, ctx) => buildContractReview('contractWrite', payload, ctx),
  async submit(payload: ContractCallsPayload, ctx) {
    if (!ctx.twoFactorCode) throw codeMissing();
    const answer = await ctx.client.contracts.write(
      { walletId: ctx.walletId, addressId: payload.addressId },
      { calls: upstreamCalls(payload, ctx, true), code: ctx.twoFactorCode },
    );
    const methodOf = (i: number) => payload.calls[i]?.method ?? '';
    if (answer.form === 'single') {
      const tx = answer.data;
      const result: ContractResult = {
        kind: 'contractWrite',
        success: [{ index: 0, method: methodOf(0), transactionId: tx.id, hash: tx.hash, status: tx.status }],
        errors: [],
        message: answer.message,
      };
      return {
        items: [
          {
            index: 0,
            transactionId: tx.id,
            hash: tx.hash,
            status: tx.status,
            confirmations: tx.confirmations,
          },
        ],
        result,
      };
    }
    const errors = batchErrors(answer.errors);
    // Batch successes carry no index: their reference (derived from the request) names the call.
    const success = answer.success.map((s) => {
      const index = Math.max(0, ctx.references.indexOf(s.reference));
      return { index, method: methodOf(index), transactionId: s.id, hash: s.hash, status: s.status };
    });
    const result: ContractResult = { kind: 'contractWrite', success, errors, message: answer.message };
    return {
      items: [
        ...success.map((s) => ({
          index: s.index,
          transactionId: s.transactionId,
          hash: s.hash,
          status: s.status,
        })),
        ...errors.map((e) => ({ index: e.index, status: 'FAILED', error: e.message })),
      ],
      ...(success.length === 0 ? { final: 'FAILED' as const } : {}),
      result,
    };
  },
});
