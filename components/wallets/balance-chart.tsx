import { formatAmount, formatUsd } from '@/lib/format';
import type { AssetBalance } from '@/lib/wallet-view';

/**
 * Balance by asset in USD as horizontal bars. Plain HTML (a labelled figure with a list), so screen
 * readers read each asset and value, and no chart library is loaded.
 */
export function BalanceChart({ balances }: { balances: AssetBalance[] }) {
  const rows = balances.filter((b) => b.usd !== null);
  const max = Math.max(0, ...rows.map((b) => b.usd ?? 0));
  return (
    <figure aria-labelledby="balance-chart-title" className="grid gap-3">
      <figcaption id="balance-chart-title" className="text-sm font-medium">
        Balance by asset (USD)
      </figcaption>
      {rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          The custody service does not report balances per asset.
        </p>
      ) : (
        <ul className="grid gap-2">
          {rows.map((b) => {
            const share = max > 0 ? ((b.usd ?? 0) / max) * 100 : 0;
            return (
              <li
                key={b.walletAssetId}
                className="grid grid-cols-[4.5rem_1fr_7rem] items-center gap-3 text-sm"
              >
                <span className="font-medium">{b.symbol}</span>
                <span className="h-3 rounded-sm bg-muted" aria-hidden>
                  <span
                    className="block h-3 rounded-sm bg-primary"
                    style={{ width: `${Math.max(share, b.usd ? 1 : 0)}%` }}
                  />
                </span>
                <span
                  className="text-right tabular-nums"
                  title={`${formatAmount(b.balance, b.decimals)} ${b.symbol}`}
                >
                  {formatUsd(b.usd)}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </figure>
  );
}
