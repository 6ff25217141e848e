import { describe, expect, it } from 'vitest';
import { type KnownAddress, lookAlikeOf, lookAlikeWarning } from './look-alike';

const PAYROLL = '0x7a3f9c21d4e5b6a7980f1e2d3c4b5a6978e1d9b4';
const known: KnownAddress[] = [
  { address: PAYROLL, label: 'whitelisted “Payroll”' },
  { address: '0x1111111111111111111111111111111111111111', label: 'paid before' },
];

describe('lookAlikeOf', () => {
  it('flags an address with the same ends and a different middle, naming the trusted one', () => {
    const poisoned = '0x7a300000000000000000000000000000000009b4';
    expect(lookAlikeOf(poisoned, known)).toEqual(known[0]);
    expect(lookAlikeWarning(known[0]!)).toContain(PAYROLL);
  });

  it('ignores case and surrounding space', () => {
    expect(lookAlikeOf(' 0x7A300000000000000000000000000000000009B4 ', known)?.address).toBe(PAYROLL);
  });

  it('does not flag the trusted address itself, in any case', () => {
    expect(lookAlikeOf(PAYROLL.toUpperCase().replace('0X', '0x'), known)).toBeNull();
  });

  it('does not flag an address whose start or end differs', () => {
    expect(lookAlikeOf('0x7a300000000000000000000000000000000009b5', known)).toBeNull();
    expect(lookAlikeOf('0x8a300000000000000000000000000000000009b4', known)).toBeNull();
    expect(lookAlikeOf('0x2222222222222222222222222222222222222222', known)).toBeNull();
  });

  it('compares only addresses of the same length', () => {
    expect(lookAlikeOf('0x7a3fdb4', known)).toBeNull();
    expect(lookAlikeOf('0x7a3f00db4', [{ address: PAYROLL, label: 'x' }])).toBeNull();
  });

  it('finds nothing with nothing known', () => {
    expect(lookAlikeOf(PAYROLL, [])).toBeNull();
  });
});
