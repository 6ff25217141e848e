import { describe, expect, it } from 'vitest';
import { parseMetadata } from './control-characters';
import { swapFormSchema } from './swap-schema';
import { expectedRate, expectedToAmount, swapAmountLimit, validateSwap } from './swaps';

const assets = [
  { id: 'usdc', symbol: 'USDC', decimals: 6, balance: '100', priceUsd: '1' },
  { id: 'eth', symbol: 'ETH', decimals: 18, balance: '0.5', priceUsd: '3000' },
  { id: 'usdt', symbol: 'USDT', decimals: 6, balance: null, priceUsd: null },
];
const good = {
  addressId: 'addr-1',
  fromAssetId: 'usdc',
  toAssetId: 'eth',
  amount: '25.50',
  order: 'RECOMMENDED' as const,
  metadata: '{"invoice":"A-12"}',
};

describe('validateSwap', () => {
  it('builds the payload with the canonical amount, symbols, decimals and metadata', () => {
    const result = validateSwap(good, assets);
    expect(result).toEqual({
      ok: true,
      payload: {
        addressId: 'addr-1',
        fromAssetId: 'usdc',
        fromSymbol: 'USDC',
        fromDecimals: 6,
        toAssetId: 'eth',
        toSymbol: 'ETH',
        toDecimals: 18,
        amount: '25.5',
        order: 'RECOMMENDED',
        metadata: { invoice: 'A-12' },
      },
    });
  });

  it('allows the whole balance but not more', () => {
    expect(validateSwap({ ...good, amount: '100' }, assets).ok).toBe(true);
    const over = validateSwap({ ...good, amount: '100.000001' }, assets);
    expect(!over.ok && over.fieldErrors.amount).toMatch(/above the address's balance \(100 USDC\)/);
  });

  it('refuses the same asset on both sides', () => {
    const same = validateSwap({ ...good, toAssetId: 'usdc' }, assets);
    expect(!same.ok && same.fieldErrors.toAssetId).toMatch(/different asset/);
  });

  it('refuses too many decimals, zero and unknown assets', () => {
    const decimals = validateSwap({ ...good, amount: '1.0000001' }, assets);
    expect(!decimals.ok && decimals.fieldErrors.amount).toMatch(/6 decimals/);
    const zero = validateSwap({ ...good, amount: '0' }, assets);
    expect(!zero.ok && zero.fieldErrors.amount).toMatch(/greater than 0/);
    const unknown = validateSwap({ ...good, fromAssetId: 'dai' }, assets);
    expect(!unknown.ok && unknown.fieldErrors.fromAssetId).toBeTruthy();
  });

  it('refuses metadata that is not a JSON object', () => {
    const array = validateSwap({ ...good, metadata: '[1]' }, assets);
    expect(!array.ok && array.fieldErrors.metadata).toMatch(/JSON object/);
    const broken = validateSwap({ ...good, metadata: '{invoice}' }, assets);
    expect(!broken.ok && broken.fieldErrors.metadata).toMatch(/valid JSON/);
    expect(parseMetadata('  ')).toEqual({ ok: true });
  });

  it('does not block on an unknown balance (the server checks against the fresh one)', () => {
    expect(validateSwap({ ...good, fromAssetId: 'usdt', amount: '5' }, assets).ok).toBe(true);
  });
});

describe('swapFormSchema', () => {
  it('refuses an unknown order', () => {
    const parsed = swapFormSchema.safeParse({ ...good, walletId: 'w', order: 'SLOWEST' });
    expect(parsed.success).toBe(false);
  });
});

describe('expected rate', () => {
  it('comes from the USD prices and is unknown without them', () => {
    expect(expectedRate('1', '3000')).toBe('0.00033333333');
    expect(expectedRate('3000', '1')).toBe('3000');
    expect(expectedRate(null, '1')).toBeNull();
    expect(expectedToAmount('25.5', expectedRate('1', '1'))).toBe('25.5');
  });
});

describe('swapAmountLimit', () => {
  const usdc = { id: 'usdc', symbol: 'USDC', decimals: 6, balance: '1250.5', priceUsd: '1' };
  it('names the broken limit with the balance formatted', () => {
    expect(swapAmountLimit('1250.500001', usdc)).toBe(
      "The amount is above the address's balance (1,250.5 USDC).",
    );
    expect(swapAmountLimit('1.1234567', usdc)).toBe(
      'USDC has 6 decimals: use at most 6 digits after the dot.',
    );
  });
  it('is null within the balance, for an unknown balance, and for text the full check reports', () => {
    expect(swapAmountLimit('1250.5', usdc)).toBeNull();
    expect(swapAmountLimit('9999999', { ...usdc, balance: null })).toBeNull();
    expect(swapAmountLimit('abc', usdc)).toBeNull();
  });
});
