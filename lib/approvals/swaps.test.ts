import { describe, expect, it } from 'vitest';
import { quoteDifferenceWords } from './swaps';

describe('quoteDifferenceWords', () => {
  const usdt = (amount: string) => `${amount} USDT`;
  it('says no change for a zero difference, however it is written', () => {
    expect(quoteDifferenceWords('0', usdt)).toBe('no change');
    expect(quoteDifferenceWords('-0', usdt)).toBe('no change');
    expect(quoteDifferenceWords('0.000', usdt)).toBe('no change');
  });
  it('signs a rise and a fall with the amount as formatted', () => {
    expect(quoteDifferenceWords('0.4', usdt)).toBe('+0.4 USDT');
    expect(quoteDifferenceWords('-0.012', usdt)).toBe('−0.012 USDT');
  });
});
