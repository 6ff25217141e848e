import 'server-only';
// EIP-712 typed-data signing from a child address (#21) as an operation kind of the approval engine. A
// permit can move funds later, so it takes the same four eyes as a withdrawal.
import { getAddress, isAddressEqual, recoverTypedDataAddress, zeroAddress } from 'viem';
import { z } from 'zod';
import { DEFAULT_EXPIRY_SECONDS } from '@/lib/approvals/policy';
import type { TypedDataResult, TypedDataReview } from '@/lib/approvals/signing';
import {
  checkTypedData,
  describeTypedData,
  type TypedDataDocument,
  viemTypedData,
} from '@/lib/validation/typed-data';
import type { ReviewContext } from '../types';
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
    // A signature moves nothing by itself; its USD value is not known, so the policy's threshold applies.
    amountUsd: null,
  };
}

export const typedDataSignOperation = defineOperation({
  key: 'typedDataSign',
  permissions: { request: 'typedDataSign.request', approve: 'typedDataSign.approve' },
  // A signature has no USD value the console can read, so a threshold would always add an approver: an
  // admin may set one.
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
