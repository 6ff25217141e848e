import { describe, expect, it } from 'vitest';
import type { LimitRemaining } from './limits';
import { typedAgainstLimits } from './typed-limits';

const base = { windowHours: 24, used: '0', onBreach: 'approvals' as const, extraApprovals: 1, rule: 'r' };
const usd = (remaining: string, onlySymbol: string | null = null): LimitRemaining => ({
  ...base,
  ruleId: `usd-${remaining}-${onlySymbol}`,
  unit: 'usd',
  symbol: 'USD',
  limit: '1000.00',
  remaining,
  onlySymbol,
});
const usdt = (remaining: string): LimitRemaining => ({
  ...base,
  ruleId: `usdt-${remaining}`,
  unit: 'asset',
  symbol: 'USDT',
  limit: '500',
  remaining,
});
const row = (amount: string | null, symbol: string, priceUsd: string | null = '1', decimals = 6) => ({
  amount,
  symbol,
  decimals,
  priceUsd,
});

describe('typedAgainstLimits', () => {
  it('adds the rows in USD and flags a total above what the limit leaves, not one equal to it', () => {
    const eth = row('0.1', 'ETH', '3000', 18);
    expect(typedAgainstLimits([usd('400.00')], [eth, row('100', 'USDT')])).toEqual([
      { ruleId: 'usd-400.00-null', total: '400.00', over: false },
    ]);
    expect(typedAgainstLimits([usd('399.99')], [eth, row('100', 'USDT')])).toEqual([
      { ruleId: 'usd-399.99-null', total: '400.00', over: true },
    ]);
  });

  it('counts only its asset for a USD rule of one asset, and an asset rule in that asset exactly', () => {
    const rows = [row('0.1', 'ETH', '3000', 18), row('250.000001', 'USDT')];
    expect(typedAgainstLimits([usd('260.00', 'USDT'), usdt('250')], rows)).toEqual([
      { ruleId: 'usd-260.00-USDT', total: '250.00', over: false },
      { ruleId: 'usdt-250', total: '250.000001', over: true },
    ]);
  });

  it('says nothing of a limit no row counts toward, a destination rule, or a row that does not read yet', () => {
    const destination = { ...usdt('1'), remaining: null, used: null };
    expect(typedAgainstLimits([usdt('1'), destination], [row(null, 'USDT'), row('5', 'ETH')])).toEqual([]);
  });

  it('leaves the total open when a counted row has no USD price', () => {
    expect(typedAgainstLimits([usd('10.00')], [row('5', 'XYZ', null)])).toEqual([
      { ruleId: 'usd-10.00-null', total: null, over: false },
    ]);
  });
});
