// The wallet's headline total in US dollars. When every asset's USD value is known the total is their
// sum, so the figure and the rows beside it can never disagree; otherwise it is the custody service's
// own figure and is labelled as such.
import type { WalletView } from '@/lib/wallet-view';

export interface WalletTotal {
  usd: number;
  /** 'assets': the sum of the per-asset values shown; 'service': #4's analytics.currentBalance. */
  source: 'assets' | 'service';
}

export function walletTotal(view: WalletView): WalletTotal {
  const { balances, balancesSource, wallet } = view;
  const known = balancesSource === 'balances' && balances.length > 0 && balances.every((b) => b.usd !== null);
  if (!known) return { usd: wallet.analytics.currentBalance, source: 'service' };
  // Added up in whole cents: adding dollars as floats drifts (0.1 + 0.2).
  const cents = balances.reduce((sum, b) => sum + Math.round((b.usd ?? 0) * 100), 0);
  return { usd: cents / 100, source: 'assets' };
}

export const TOTAL_SOURCE_NOTE: Record<WalletTotal['source'], string> = {
  assets: 'Sum of the assets below',
  service: 'As reported by the custody service',
};
