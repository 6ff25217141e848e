import { describe, expect, it } from 'vitest';
import {
  checkAmount,
  decimalsMessage,
  exceedsBalance,
  subtractDecimal,
  sumDecimals,
  usdValueOf,
} from './amounts';

// Each bad input with the message a person sees (USDC, 6 decimals, unless the row says otherwise).
const BAD: Array<[string, string, number?]> = [
  ['', 'Enter an amount.'],
  ['   ', 'Enter an amount.'],
  ['1 000', 'Remove the spaces from the amount.'],
  ['1\t0', 'Remove the spaces from the amount.'],
  ['0x10', 'Enter the amount as a decimal number, not hexadecimal.'],
  ['1e3', 'Write the amount in full, without exponent notation (1500, not 1.5e3).'],
  ['1.5E6', 'Write the amount in full, without exponent notation (1500, not 1.5e3).'],
  ['2e-7', 'Write the amount in full, without exponent notation (1500, not 1.5e3).'],
  ['-1', 'The amount must be positive.'],
  ['-0.5', 'The amount must be positive.'],
  ['+1', 'Write the amount without a sign.'],
  ['1,5', 'Use a dot for decimals and no thousands separators (1234.5).'],
  ['1,000.50', 'Use a dot for decimals and no thousands separators (1234.5).'],
  ['.5', 'Write a digit before the dot (0.5, not .5).'],
  ['5.', 'Write digits after the dot, or remove it.'],
  ['1.2.3', 'Enter a decimal number, e.g. 10.5.'],
  ['abc', 'Enter a decimal number, e.g. 10.5.'],
  ['NaN', 'Enter a decimal number, e.g. 10.5.'],
  ['Infinity', 'Enter a decimal number, e.g. 10.5.'],
  ['$10', 'Enter a decimal number, e.g. 10.5.'],
  ['10USDC', 'Enter a decimal number, e.g. 10.5.'],
  ['１０', 'Enter a decimal number, e.g. 10.5.'],
  ['0', 'The amount must be greater than 0.'],
  ['0.000', 'The amount must be greater than 0.'],
  ['00', 'The amount must be greater than 0.'],
  ['0.0000001', 'USDC has 6 decimals: use at most 6 digits after the dot.'],
  ['1.1234567', 'USDC has 6 decimals: use at most 6 digits after the dot.'],
  ['1.5', 'USDC has no decimals: enter a whole number.', 0],
  ['1.0000000000000000001', 'USDC has 18 decimals: use at most 18 digits after the dot.', 18],
  [`${'9'.repeat(80)}`, 'The amount is too large.', 0],
];

describe('checkAmount', () => {
  it.each(BAD)('refuses %j: %s', (input, message, decimals = 6) => {
    expect(checkAmount(input, decimals, 'USDC')).toEqual({ ok: false, message });
  });

  it.each([
    ['1', '1', 1_000_000n],
    ['0.5', '0.5', 500_000n],
    ['  12.340000 ', '12.34', 12_340_000n],
    ['007.25', '7.25', 7_250_000n],
    ['0.000001', '0.000001', 1n],
    ['1.000000000', '1', 1_000_000n],
  ])('accepts %j as %s', (input, value, units) => {
    expect(checkAmount(input, 6, 'USDC')).toEqual({ ok: true, value, units });
  });

  it('does exact decimal arithmetic and USD values', () => {
    expect(subtractDecimal('1', '0.000000000000000001', 18)).toBe('0.999999999999999999');
    expect(subtractDecimal('1', '2.5', 6)).toBe('-1.5');
    expect(sumDecimals(['0.1', '0.2'], 6)).toBe('0.3');
    expect(usdValueOf('2.5', '3000')).toBe(7500);
    expect(usdValueOf('1', null)).toBeNull();
  });
});

describe('decimalsMessage', () => {
  it('names the asset and its decimals when the amount is more precise', () => {
    expect(decimalsMessage('1.1234567', 6, 'USDC')).toBe(
      'USDC has 6 decimals: use at most 6 digits after the dot.',
    );
    expect(decimalsMessage('3.5', 0, 'NFT')).toBe('NFT has no decimals: enter a whole number.');
  });
  it('lets amounts that fit, trailing zeros and text that is not a decimal pass', () => {
    expect(decimalsMessage('1.123456', 6, 'USDC')).toBeNull();
    expect(decimalsMessage('1.12345600000', 6, 'USDC')).toBeNull();
    expect(decimalsMessage('abc', 6, 'USDC')).toBeNull();
    expect(decimalsMessage('', 6, 'USDC')).toBeNull();
  });
});

describe('exceedsBalance', () => {
  it('compares exactly in base units', () => {
    expect(exceedsBalance(100_000_000n, '100', 6)).toBe(false);
    expect(exceedsBalance(100_000_001n, '100', 6)).toBe(true);
    expect(exceedsBalance(10n ** 18n + 1n, '1.000000000000000000', 18)).toBe(true);
  });
  it('never blocks on an unknown balance', () => {
    expect(exceedsBalance(10n ** 30n, null, 6)).toBe(false);
    expect(exceedsBalance(10n ** 30n, undefined, 6)).toBe(false);
    expect(exceedsBalance(10n ** 30n, 'n/a', 6)).toBe(false);
  });
});
