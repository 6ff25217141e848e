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

export const withdrawBody = z.object({ assets: z.array(withdrawalItem) });
export type WithdrawalItem = z.infer<typeof withdrawalItem>;

export const feeBody = z.object({ assets: z.array(z.object({ id: text, address: text, amount: numeric })) });

const callItem = z.object({
  address: text,
  method: text,
  abi: z.array(z.record(z.string(), z.unknown())),
  parameters: z.array(z.unknown()).optional(),
  reference: text.optional(),
  metadata,
});
export type CallItem = z.infer<typeof callItem>;

export const callsBody = z.object({ calls: z.array(callItem), code: text.optional() });

export const swapBody = z.object({
  amount: numeric,
  fromAssetId: text,
  toAssetId: text,
  reference: text.optional(),
  metadata,
  order: text.optional(),
});

export const typedDataBody = z.object({
  domain: z.record(z.string(), z.unknown()),
  message: z.record(z.string(), z.unknown()),
  types: z.record(z.string(), z.array(z.object({ name: text, type: text }))),
  primaryType: text.optional(),
});

export const depositBody = z.object({ addressId: text, assetId: text, amount: numeric });
