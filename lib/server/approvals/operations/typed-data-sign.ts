import 'server-only';
// EIP-712 typed-data signing from a child address (#21) as an operation kind of the approval engine. A
// permit can move funds later, so it takes the same four eyes as a withdrawal, and is priced like one: a permit's
// allowance or an authorization's transfer counts in USD for the policy's threshold and the spending limits, and
// its spender or recipient is held to the destination policy (destinations.ts). A signature the console cannot
// price (another document, an unlimited value, a token the wallet does not hold) needs the most approvals the
// policy asks, as an undecodable contract call does.
import { formatUnits, getAddress, isAddressEqual, recoverTypedDataAddress, zeroAddress } from 'viem';
import { z } from 'zod';
import { DEFAULT_EXPIRY_SECONDS } from '@/lib/approvals/policy';
import type { TypedDataResult, TypedDataReview } from '@/lib/approvals/signing';
import {
  checkTypedData,
  describeTypedData,
  type TypedDataDescription,
  type TypedDataDocument,
  viemTypedData,
} from '@/lib/validation/typed-data';
import type { ReviewContext } from '../types';
import { type UsdAmount, usdOf } from '../usd';
import { assetAt, priceBook } from './contract-pricing';
import { reviewAddress, reviewWallet } from './review-parts';
import { type BuiltReview, defineOperation } from './types';

export interface TypedDataPayload extends TypedDataDocument {
  addressId: string;
  /** The child address's blockchain address, read from the custody service when the request was made. */
  signer: string;
}

const fieldSchema = z.object({ name: z.string(), type: z.string() });
const typedDataPayloadSchema: z.ZodType<TypedDataPayload> = z
  .object({
    addressId: z.string().min(1),
    signer: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    domain: z.object({
      name: z.string(),
      version: z.string(),
      chainId: z.number().int(),
      verifyingContract: z.string(),
    }),
    types: z.record(z.string(), z.array(fieldSchema)),
    primaryType: z.string().min(1),
    message: z.record(z.string(), z.unknown()),
  })
  .superRefine((p, ctx) => {
    const check = checkTypedData(p);
    if (!check.ok) ctx.addIssue({ code: 'custom', message: check.error });
  });

/**
 * What the signature allows (a permit) or moves (an authorization), in USD, priced as a withdrawal of the token
 * is (the signing address's balances, then the master wallet's); or why the console cannot say.
 */
async function signatureValue(
  description: TypedDataDescription,
  wallet: Parameters<typeof assetAt>[0],
  addressId: string,
  ctx: ReviewContext,
): Promise<{ usd: UsdAmount; reason: null } | { usd: null; reason: string }> {
  if (description.kind === 'other' || !description.value)
    return {
      usd: null,
      reason: `The console cannot read what a ${description.primaryType} signature allows or moves`,
    };
  if (description.value.unlimited)
    return { usd: null, reason: 'The value is unlimited, so the console cannot price it' };
  const asset = assetAt(wallet, description.token.address);
  if (!asset)
    return {
      usd: null,
      reason: `${description.token.address} is not an asset of this wallet, so the console cannot price the value`,
    };
  const source = await ctx.balances(addressId);
  const priced = source.find((b) => b.assetId === asset.id)?.priceUsd;
  const prices = priceBook(source, priced ? [] : await ctx.balances());
  const usd = usdOf(formatUnits(BigInt(description.value.raw), asset.decimals), prices.price(asset.id));
  return usd === null
    ? { usd: null, reason: `The custody service gives no USD price for ${asset.symbol}` }
    : { usd, reason: null };
}

async function buildTypedDataReview(
  payload: TypedDataPayload,
  ctx: ReviewContext,
): Promise<BuiltReview<'typedDataSign'>> {
  const { client, walletId } = ctx;
  const [wallet, child] = await Promise.all([
    client.wallets.get({ walletId }).then((r) => r.data),
    client.addresses.get({ walletId, addressId: payload.addressId }).then((r) => r.data),
  ]);
  const tokens = (wallet.assets ?? [])
    .map((a) => a.asset)
    .filter((a) => a.address && a.address.toLowerCase() !== zeroAddress)
    .map((a) => ({ address: a.address, symbol: a.symbol, decimals: a.decimals }));
  const check = checkTypedData(payload);
  const description = describeTypedData(payload, { signer: child.address, tokens, now: new Date() });
  const warnings = [...description.warnings];
  if (!isAddressEqual(getAddress(child.address), getAddress(payload.signer)))
    warnings.push('The signing address changed since the request was made.');
  const value = await signatureValue(description, wallet, payload.addressId, ctx);
  const highest = value.reason === null ? null : await ctx.highestApprovals();
  if (value.reason !== null) warnings.unshift(`${value.reason}; it needs ${highest} approvals.`);
  const review: TypedDataReview = {
    kind: 'typedDataSign',
    wallet: reviewWallet(wallet),
    signer: reviewAddress(child),
    document: {
      domain: payload.domain,
      types: payload.types,
      primaryType: payload.primaryType,
      message: payload.message,
    },
    hash: check.ok ? check.hash : '',
    description,
    valueUsd: value.usd,
    warnings,
    builtAt: new Date().toISOString(),
  };
  const what =
    description.kind === 'permit'
      ? 'Permit'
      : description.kind === 'transferWithAuthorization'
        ? 'Transfer authorization'
        : payload.primaryType;
  const amount = description.value
    ? description.value.unlimited
      ? ' (unlimited)'
      : ` of ${description.value.units ?? description.value.raw} ${description.token.symbol ?? 'base units'}`
    : '';
  return {
    review,
    summary: `Sign ${what}${amount}`,
    // The signature moves nothing by itself, but lets its spender or recipient take the value: counted in USD for
    // the threshold and the spending limits; what cannot be priced needs the highest quorum.
    amountUsd: value.usd,
    ...(highest === null ? {} : { minApprovals: highest }),
  };
}

export const typedDataSignOperation = defineOperation({
  key: 'typedDataSign',
  permissions: { request: 'typedDataSign.request', approve: 'typedDataSign.approve' },
  // A priced signature meets the threshold an admin may set, like a withdrawal; an unpriced one needs the most.
  defaultPolicy: { approvals: 1, thresholdUsd: null, expirySeconds: DEFAULT_EXPIRY_SECONDS },
  // The verified signature is the result.
  finality: 'answer',
  // After a lost answer the signature is not returned by a lookup: the found transaction is followed.
  finalWhenFound: () => null,
  payloadSchema: typedDataPayloadSchema,
  itemCount: () => 1,
  addressIdOf: (p) => p.addressId,
  buildReview: buildTypedDataReview,
  async submit(payload: TypedDataPayload, ctx) {
    const answer = await ctx.client.signing.typedData(
      { walletId: ctx.walletId, addressId: payload.addressId },
      { domain: { ...payload.domain }, types: payload.types, message: payload.message },
    );
    const tx = answer.data;
    const sig = tx.signedTransaction;
    let recovered: string | null = null;
    let error: string | null = null;
    try {
      recovered = await recoverTypedDataAddress({
        // biome-ignore lint/suspicious/noExplicitAny: caller-defined EIP-712 types, validated by the payload schema.
        ...(viemTypedData(payload) as any),
        signature: sig.signature as `0x${string}`,
      });
    } catch {
      error = 'The signature could not be checked: it does not recover to any address.';
    }
    const verified = recovered !== null && isAddressEqual(getAddress(recovered), getAddress(payload.signer));
    if (recovered && !verified)
      error = `Signature mismatch: it recovers to ${recovered}, not to the signing address ${payload.signer}.`;
    const result: TypedDataResult = {
      kind: 'typedDataSign',
      transactionId: tx.id,
      r: sig.r,
      s: sig.s,
      v: sig.v,
      signature: sig.signature,
      recoveredAddress: recovered,
      expectedAddress: payload.signer,
      verified,
      error,
    };
    return {
      items: [{ index: 0, transactionId: tx.id, hash: tx.hash, status: verified ? 'SUCCESS' : 'FAILED' }],
      final: verified ? ('SUCCESS' as const) : ('FAILED' as const),
      result,
    };
  },
});
