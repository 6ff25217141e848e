import { describe, expect, it } from 'vitest';
import {
  describeBound,
  describeSlippage,
  ruleFormSchema,
  toRuleBody,
  whitelistFormSchema,
} from './settlement';

const good = {
  name: 'Sweep USDC to cold storage',
  isActive: true,
  order: 'RECOMMENDED' as const,
  slippageTolerance: '0.5',
  sourceAssets: ['USDC'],
  sourceBlockchain: 'ethereum',
  minAmount: '10',
  maxAmount: '1000',
  destinationBlockchain: 'ethereum',
  destinationAsset: 'USDC',
  destinationAddress: '0x000000000000000000000000000000000000dead',
};

function errorsOf(input: unknown): Record<string, string> {
  const result = ruleFormSchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('settlement rule validation', () => {
  it('accepts a complete rule and checksums the destination', () => {
    const parsed = ruleFormSchema.parse(good);
    expect(toRuleBody(parsed).destination.address).toBe('0x000000000000000000000000000000000000dEaD');
  });

  it('accepts -1 as "no limit" and "no bound"', () => {
    expect(errorsOf({ ...good, slippageTolerance: '-1', minAmount: '-1', maxAmount: '-1' })).toEqual({});
    expect(errorsOf({ ...good, minAmount: '5000', maxAmount: '-1' })).toEqual({});
  });

  it.each([
    [{ name: '  ' }, 'name', 'Give the rule a name'],
    [{ order: 'SLOWEST' }, 'order', 'Choose an order'],
    [{ slippageTolerance: '-2' }, 'slippageTolerance', 'Slippage tolerance: enter a non-negative decimal'],
    [{ slippageTolerance: '150' }, 'slippageTolerance', 'at most 100'],
    [{ sourceAssets: [] }, 'sourceAssets', 'Choose at least one source asset'],
    [{ minAmount: '1e5' }, 'minAmount', 'Minimum amount: enter a non-negative decimal'],
    [{ maxAmount: 'lots' }, 'maxAmount', 'Maximum amount: enter a non-negative decimal'],
    [{ minAmount: '1000.01', maxAmount: '1000' }, 'minAmount', 'The minimum must not be above the maximum'],
    [{ destinationAddress: '0x1234' }, 'destinationAddress', 'has 40 characters after 0x'],
    [{ destinationAddress: '0x000000000000000000000000000000000000DeaD' }, 'destinationAddress', 'checksum'],
    [{ destinationAsset: '' }, 'destinationAsset', 'Choose the destination asset'],
  ])('rejects %o at %s', (patch, field, message) => {
    expect(errorsOf({ ...good, ...patch })[field]).toContain(message);
  });

  it('describes bounds for people', () => {
    expect(describeBound('-1')).toBe('no bound');
    expect(describeBound('10', ' USDC')).toBe('10 USDC');
    expect(describeSlippage('-1')).toBe('no limit');
    expect(describeSlippage('0.5')).toBe('0.5%');
  });
});

describe('whitelist form', () => {
  const base = {
    address: '0x000000000000000000000000000000000000dead',
    disableAutoSweep: false,
    enableGaslessWithdraw: false,
    showPrivateKey: false,
  };
  it('accepts an address with optional JSON metadata', () => {
    expect(whitelistFormSchema.safeParse({ ...base, metadata: '{"desk":"otc"}' }).success).toBe(true);
  });
  it('rejects metadata that is not a JSON object, and a malformed private key', () => {
    expect(whitelistFormSchema.safeParse({ ...base, metadata: '[1,2]' }).success).toBe(false);
    expect(whitelistFormSchema.safeParse({ ...base, privateKey: '0x1234' }).success).toBe(false);
    expect(whitelistFormSchema.safeParse({ ...base, privateKey: `0x${'ab'.repeat(32)}` }).success).toBe(true);
  });
});
