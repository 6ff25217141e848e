// Request bodies as the sandbox reads them. These check structure only (a failure is 400, malformed);
// semantic checks (amounts, addresses, assets, batch sizes) come after and answer 422.
import { z } from 'zod';

const text = z.string();
const numeric = z.union([z.string(), z.number()]);
const metadata = z.record(z.string(), z.unknown()).nullable().optional();

export const idBody = z.object({ id: text.min(1) });

export const whitelistBody = z.object({
  address: text,
  name: text.optional(),
  metadata,
  disableAutoSweep: z.boolean().optional(),
  enableGaslessWithdraw: z.boolean().optional(),
  showPrivateKey: z.boolean().optional(),
  privateKey: text.optional(),
});

export const createAddressBody = z.object({
  name: text.optional(),
  metadata,
  disableAutoSweep: z.boolean().optional(),
  enableGaslessWithdraw: z.boolean().optional(),
  showPrivateKey: z.boolean().optional(),
});

export const walletUpdateBody = z.object({ name: text.optional(), description: text.optional() });

export const addressUpdateBody = z.object({
  name: text.nullable().optional(),
  metadata,
  disableAutoSweep: z.boolean().optional(),
  enableGaslessWithdraw: z.boolean().optional(),
});

export const autoSettlementPatchBody = z.object({ isActive: z.boolean() });

const ruleSource = z.object({
  assets: z.array(text),
  blockchain: text,
  minAmount: numeric,
  maxAmount: numeric,
});
const ruleDestination = z.object({ address: text, asset: text, blockchain: text });

export const ruleCreateBody = z.object({
  name: text,
  isActive: z.boolean().optional(),
  order: text,
  slippageTolerance: numeric,
  source: ruleSource,
  destination: ruleDestination,
});

export const ruleUpdateBody = z.object({
  name: text.optional(),
  isActive: z.boolean().optional(),
  order: text.optional(),
  slippageTolerance: numeric.optional(),
  source: ruleSource.partial().optional(),
  destination: ruleDestination.partial().optional(),
});

const withdrawalItem = z.object({
  id: text,
  address: text,
  amount: numeric,
  reference: text.optional(),
  note: text.optional(),
  metadata,
});

// Clients written for the real service also send one operation as a bare object (`{assetId, address,
// amount}`, a bare call item) and read the answer in the single form. A bare object is read as a batch of
// one before it is checked, so a malformed one names the field as the array form would; `single` records
// which form came in.
function isBare(body: unknown, key: string): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && !(key in body);
}

function bareAsset(body: unknown) {
  if (!isBare(body, 'assets')) return body;
  const { assetId, ...item } = body;
  return { assets: [{ id: assetId, ...item }], single: true };
}

export const withdrawBody = z.preprocess(
  bareAsset,
  z.object({ assets: z.array(withdrawalItem), single: z.literal(true).optional() }),
);
export type WithdrawalItem = z.infer<typeof withdrawalItem>;

export const feeBody = z.preprocess(
  bareAsset,
  z.object({ assets: z.array(z.object({ id: text, address: text, amount: numeric })) }),
);

const callItem = z.object({
  address: text,
  method: text,
  abi: z.array(z.record(z.string(), z.unknown())),
  parameters: z.array(z.unknown()).optional(),
  reference: text.optional(),
  metadata,
});
export type CallItem = z.infer<typeof callItem>;

export const callsBody = z.preprocess(
  (body) => {
    if (!isBare(body, 'calls')) return body;
    const { code, ...call } = body;
    return { calls: [call], ...(code === undefined ? {} : { code }) };
  },
  z.object({ calls: z.array(callItem), code: text.optional() }),
);
export type CallsBody = z.infer<typeof callsBody>;

export const swapBody = z.object({
  amount: numeric,
  fromAssetId: text,
  toAssetId: text,
  reference: text.optional(),
  metadata,
  order: text.optional(),
});

export type SwapBody = z.infer<typeof swapBody>;

export const swapQuoteBody = z.object({
  amount: numeric,
  fromAssetId: text,
  toAssetId: text,
  order: text.optional(),
});
export type SwapQuoteBody = z.infer<typeof swapQuoteBody>;

export const typedDataBody = z.object({
  domain: z.record(z.string(), z.unknown()),
  message: z.record(z.string(), z.unknown()),
  types: z.record(z.string(), z.array(z.object({ name: text, type: text }))),
  primaryType: text.optional(),
});

export const depositBody = z.object({ addressId: text, assetId: text, amount: numeric });
