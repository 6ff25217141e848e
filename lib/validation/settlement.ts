// The auto-settlement rule form (#10, #11): one schema for the form and the action.
import { z } from 'zod';
import { SETTLEMENT_ORDERS } from '@/lib/custody/schemas';
import { checkEvmAddress } from './addresses';

/** One line per order, shown next to the choice. */
export const ORDER_EXPLANATIONS: Record<(typeof SETTLEMENT_ORDERS)[number], string> = {
  RECOMMENDED: 'Balanced choice of route between cost and speed.',
  FASTEST: 'Settles as quickly as possible, whatever the fee.',
  CHEAPEST: 'Lowest fee, even if settlement takes longer.',
  NO_SLIPPAGE: 'Only routes that deliver the exact quoted amount.',
};

const NONE = '-1';
const bound = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^(-1|\d+(\.\d+)?)$/, {
      message: `${what}: enter a non-negative decimal such as 100.5, or choose no limit`,
    });

function decimalLessOrEqual(a: string, b: string): boolean {
  const [ai = '0', af = ''] = a.split('.');
  const [bi = '0', bf = ''] = b.split('.');
  const width = Math.max(af.length, bf.length);
  const x = BigInt(ai + af.padEnd(width, '0'));
  const y = BigInt(bi + bf.padEnd(width, '0'));
  return x <= y;
}

export const ruleFormSchema = z
  .object({
    name: z.string().trim().min(1, { message: 'Give the rule a name' }).max(100),
    isActive: z.boolean(),
    order: z.enum(SETTLEMENT_ORDERS, { message: 'Choose an order' }),
    slippageTolerance: bound('Slippage tolerance').refine((v) => v === NONE || Number(v) <= 100, {
      message: 'Slippage tolerance is a percentage: at most 100, or choose no limit',
    }),
    sourceAssets: z.array(z.string().min(1)).min(1, { message: 'Choose at least one source asset' }),
    sourceBlockchain: z.string().trim().min(1, { message: 'Choose the source blockchain' }),
    minAmount: bound('Minimum amount'),
    maxAmount: bound('Maximum amount'),
    destinationBlockchain: z.string().trim().min(1, { message: 'Choose the destination blockchain' }),
    destinationAsset: z.string().trim().min(1, { message: 'Choose the destination asset' }),
    destinationAddress: z.string(),
  })
  .superRefine((v, ctx) => {
    const decimal = /^\d+(\.\d+)?$/;
    const comparable = decimal.test(v.minAmount) && decimal.test(v.maxAmount);
    if (comparable && !decimalLessOrEqual(v.minAmount, v.maxAmount)) {
      ctx.addIssue({
        code: 'custom',
        path: ['minAmount'],
        message: 'The minimum must not be above the maximum',
      });
    }
    const address = checkEvmAddress(v.destinationAddress);
    if (!address.ok) ctx.addIssue({ code: 'custom', path: ['destinationAddress'], message: address.message });
  });

export type RuleForm = z.input<typeof ruleFormSchema>;

/** The form as the custody API's rule body (destination checksummed). */
export function toRuleBody(form: z.output<typeof ruleFormSchema>) {
  const address = checkEvmAddress(form.destinationAddress);
  return {
    name: form.name,
    isActive: form.isActive,
    order: form.order,
    slippageTolerance: form.slippageTolerance,
    source: {
      assets: form.sourceAssets,
      blockchain: form.sourceBlockchain,
      minAmount: form.minAmount,
      maxAmount: form.maxAmount,
    },
    destination: {
      address: address.ok ? address.address : form.destinationAddress,
      asset: form.destinationAsset,
      blockchain: form.destinationBlockchain,
    },
  };
}

export function describeBound(value: string, unit = ''): string {
  return value === NONE ? 'no bound' : `${value}${unit}`;
}
export function describeSlippage(value: string): string {
  return value === NONE ? 'no limit' : `${value}%`;
}

export const walletSettlementSchema = z.object({ walletId: z.string().min(1), isActive: z.boolean() });

export const whitelistFormSchema = z.object({
  address: z.string().superRefine((value, ctx) => {
    const check = checkEvmAddress(value);
    if (!check.ok) ctx.addIssue({ code: 'custom', message: check.message });
  }),
  name: z.string().trim().max(100).optional(),
  metadata: z
    .string()
    .trim()
    .optional()
    .superRefine((value, ctx) => {
      if (!value) return;
      try {
        const parsed: unknown = JSON.parse(value);
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      } catch {
        ctx.addIssue({ code: 'custom', message: 'Metadata must be a JSON object, e.g. {"desk": "otc"}' });
      }
    }),
  disableAutoSweep: z.boolean(),
  enableGaslessWithdraw: z.boolean(),
  showPrivateKey: z.boolean(),
  // Write-only: passed to the custody service once, never echoed, logged or stored.
  privateKey: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || /^(0x)?[0-9a-fA-F]{64}$/.test(v), { message: 'A private key is 64 hex characters' }),
});
export type WhitelistForm = z.input<typeof whitelistFormSchema>;
