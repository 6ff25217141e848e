import { describe, expect, it } from 'vitest';
import { requiredApprovals } from './policy';
import { compareUsd, sumUsd, usdNumber, usdOf } from './usd';

describe('exact USD arithmetic', () => {
  it('multiplies an amount by a price and rounds half up to the cent', () => {
    expect(usdOf('1.5', '2')).toBe('3.00');
    expect(usdOf('0.1', '3')).toBe('0.30');
    // Binary floating point rounds 1.005 * 100 down to 100.
    expect(usdOf('1.005', '1')).toBe('1.01');
    expect(usdOf('1.004999', '1')).toBe('1.00');
    expect(usdOf('123456789.123456789012345678', '0.99990001')).toBe('123444444.68');
    expect(usdOf('2', '1.5e-3')).toBe('0.00');
    expect(usdOf('2000', '2.5e-3')).toBe('5.00');
    expect(usdOf('5', 0.2)).toBe('1.00');
  });

  it('is unknown without a readable price or amount', () => {
    expect(usdOf('1', null)).toBeNull();
    expect(usdOf('1', undefined)).toBeNull();
    expect(usdOf('1', '')).toBeNull();
    expect(usdOf('1', 'n/a')).toBeNull();
    expect(usdOf('-1', '1')).toBeNull();
    expect(usdOf('1', Number.NaN)).toBeNull();
  });

  it('sums to the cent, unknown when a part is unknown', () => {
    expect(sumUsd(['3333.34', '3333.33', '3333.33'])).toBe('10000.00');
    expect(sumUsd(['0.10', '0.20'])).toBe('0.30');
    expect(sumUsd([])).toBe('0.00');
    expect(sumUsd(['1.00', null])).toBeNull();
    expect(usdNumber('10000.00')).toBe(10_000);
    expect(usdNumber(null)).toBeNull();
  });

  it('compares decimals exactly', () => {
    expect(compareUsd('10000.00', 10_000)).toBe(0);
    expect(compareUsd('10000.01', 10_000)).toBe(1);
    expect(compareUsd('9999.99', '10000')).toBe(-1);
    expect(compareUsd(0.3, '0.30')).toBe(0);
    expect(() => compareUsd('abc', 1)).toThrow(RangeError);
  });

  it('decides the approvals needed on the exact value', () => {
    const policy = { approvals: 1, thresholdUsd: 1, expirySeconds: 3600 };
    // 1.005 USD is 1.01 to the cent: above a 1 USD threshold (a float product rounds it to 1.00).
    expect(requiredApprovals(policy, usdOf('1.005', '1'))).toBe(2);
    expect(requiredApprovals(policy, usdOf('1.004', '1'))).toBe(1);
    const big = { ...policy, thresholdUsd: 10_000 };
    expect(requiredApprovals(big, sumUsd(['3333.34', '3333.33', '3333.33']))).toBe(1);
    expect(requiredApprovals(big, sumUsd(['3333.34', '3333.34', '3333.33']))).toBe(2);
  });
});
