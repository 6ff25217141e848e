// The auto-settlement rule form (#10, #11): one schema for the form and the action.
import { z } from 'zod';
import { SETTLEMENT_ORDERS } from '@/lib/custody/constants';
import { checkEvmAddress } from './addresses';
import { parseMetadata } from './control-characters';
import { metadataText, plainText } from './text';

/** One line per order, shown next to the choice. */

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
    name: plainText().trim().min(1, { message: 'Give the rule a name' }).max(100),
    isActive: z.boolean(),
    order: z.enum(SETTLEMENT_ORDERS, { message: 'Choose an order' }),
    slippageTolerance: bound('Slippage tolerance').refine((v) => v === NONE || Number(v) <= 100, {
      message: 'Slippage tolerance is a percentage: at most 100, or choose no limit',
    }),
    sourceAssets: z.array(plainText().min(1).max(32)).min(1, { message: 'Choose at least one source asset' }),
    sourceBlockchain: plainText().trim().min(1, { message: 'Choose the source blockchain' }).max(64),
    minAmount: bound('Minimum amount'),
    maxAmount: bound('Maximum amount'),
    destinationBlockchain: plainText()
      .trim()
      .min(1, { message: 'Choose the destination blockchain' })
      .max(64),
    destinationAsset: plainText().trim().min(1, { message: 'Choose the destination asset' }).max(32),
    destinationAddress: plainText().max(200),
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

/** What a wallet offers a rule: its asset symbols and blockchains, as the service reports them. */
export interface RuleChoices {
  symbols: readonly string[];
  chains: readonly string[];
}

/** The wallet's own choices, from the service's wallet (#4): active assets' symbols, its chain and theirs. */
export function ruleChoicesOf(wallet: {
  blockchain: { slug: string };
  assets: ReadonlyArray<{ isActive: boolean; asset: { symbol: string; blockchain?: { slug: string } } }>;
}): RuleChoices {
  const active = wallet.assets.filter((a) => a.isActive);
  return {
    symbols: [...new Set(active.map((a) => a.asset.symbol))],
    chains: [...new Set([wallet.blockchain.slug, ...active.flatMap((a) => a.asset.blockchain?.slug ?? [])])],
  };
}

/**
 * The rule form held to one wallet: source and destination assets among its symbols, blockchains among its
 * chains, no more source assets than it has. The form and the action use the same one, so a rule naming
 * anything else is refused at its field and never sent.
 */
export function ruleFormSchemaFor(choices: RuleChoices) {
  const symbols = new Set(choices.symbols);
  const chains = new Set(choices.chains);
  return ruleFormSchema.superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (v.sourceAssets.length > symbols.size)
      issue('sourceAssets', `Choose at most ${symbols.size} source assets: the wallet has ${symbols.size}`);
    else if (new Set(v.sourceAssets).size !== v.sourceAssets.length)
      issue('sourceAssets', 'Choose each source asset once');
    else if (v.sourceAssets.some((a) => !symbols.has(a)))
      issue('sourceAssets', 'Choose source assets among this wallet’s assets');
    if (!chains.has(v.sourceBlockchain)) issue('sourceBlockchain', 'Choose one of this wallet’s blockchains');
    if (!chains.has(v.destinationBlockchain))
      issue('destinationBlockchain', 'Choose one of this wallet’s blockchains');
    if (!symbols.has(v.destinationAsset)) issue('destinationAsset', 'Choose one of this wallet’s assets');
  });
}

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

export const walletSettlementSchema = z.object({
  walletId: plainText().min(1).max(100),
  isActive: z.boolean(),
});

/** Optional metadata typed as JSON text: an object when given, held to the shared metadata rules. */
const metadataTextField = metadataText().trim().optional();

/** The metadata field's text as the object the custody service takes (the schema has checked it). */
export function metadataObject(text: string | undefined): Record<string, unknown> | undefined {
  const parsed = parseMetadata(text);
  return parsed.ok ? parsed.value : undefined;
}

/** A new deposit (child) address for a customer: what the custody service's create-address call takes. */
export const depositAddressFormSchema = z.object({
  name: plainText().trim().min(1, { message: 'Name the address, e.g. the customer it is for' }).max(100),
  metadata: metadataTextField,
  disableAutoSweep: z.boolean(),
  enableGaslessWithdraw: z.boolean(),
});
export type DepositAddressForm = z.input<typeof depositAddressFormSchema>;

export const whitelistFormSchema = z.object({
  address: plainText()
    .max(200)
    .superRefine((value, ctx) => {
      const check = checkEvmAddress(value);
      if (!check.ok) ctx.addIssue({ code: 'custom', message: check.message });
    }),
  name: plainText().trim().max(100).optional(),
  metadata: metadataTextField,
  disableAutoSweep: z.boolean(),
  enableGaslessWithdraw: z.boolean(),
  showPrivateKey: z.boolean(),
  // Write-only: passed to the custody service once, never echoed, logged or stored.
  privateKey: plainText()
    .trim()
    .optional()
    .refine((v) => !v || /^(0x)?[0-9a-fA-F]{64}$/.test(v), { message: 'A private key is 64 hex characters' }),
});
export type WhitelistForm = z.input<typeof whitelistFormSchema>;
