import { describe, expect, it } from 'vitest';
import type { AssetBalance, WalletView } from '@/lib/wallet-view';
import { walletTotal } from './wallet-total';

function view(usd: Array<number | null>, currentBalance: number, source: WalletView['balancesSource']) {
  const balances = usd.map(
    (value, i): AssetBalance => ({
      walletAssetId: `wa${i}`,
      assetId: `a${i}`,
      symbol: `T${i}`,
      name: `Token ${i}`,
      decimals: 6,
      isActive: true,
      contractAddress: '0x0',
      balance: value === null ? null : String(value),
      usd: value,
    }),
  );
  return {
    wallet: { analytics: { currentBalance } },
    balances,
    balancesSource: source,
  } as unknown as WalletView;
}

describe('walletTotal', () => {
  it('adds the per-asset values in cents when all are known', () => {
    expect(walletTotal(view([0.1, 0.2, 445_000], 4450, 'balances'))).toEqual({
      usd: 445_000.3,
      source: 'assets',
    });
  });

  it("falls back to the service's figure when a value is unknown or only totals are reported", () => {
    expect(walletTotal(view([10, null], 99, 'balances'))).toEqual({ usd: 99, source: 'service' });
    expect(walletTotal(view([], 12.5, 'analytics'))).toEqual({ usd: 12.5, source: 'service' });
  });
});
