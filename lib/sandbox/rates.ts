// The sandbox's price and rate table: USD prices per symbol, swap rates derived from them.
import { formatUnits, parseUnits } from 'viem';

/** USD prices used for amountUSD, fee USD values and swap rates. */
export const USD_PRICES: Readonly<Record<string, string>> = {
  ETH: '3000',
  POL: '0.5',
  USDC: '1',
  USDT: '1',
};

/** Spread taken by the simulated swap venue per order type, in basis points. */
export const SWAP_SPREAD_BPS: Readonly<Record<string, bigint>> = {
  RECOMMENDED: 30n,
  FASTEST: 50n,
  CHEAPEST: 20n,
  NO_SLIPPAGE: 0n,
};

const RATE_DECIMALS = 18;

export function usdPrice(symbol: string): string | undefined {
  return USD_PRICES[symbol.toUpperCase()];
}

export interface SwapQuote {
  /** Units of `to` per one unit of `from`, decimal string. */
  rate: string;
  toAmount: bigint;
}

/** Quote `amount` base units of `from` into `to` base units, after the order's spread; rounds down. */
export function quoteSwap(
  from: { symbol: string; decimals: number },
  to: { symbol: string; decimals: number },
  amount: bigint,
  order = 'RECOMMENDED',
): SwapQuote {
  const fromPrice = usdPrice(from.symbol);
  const toPrice = usdPrice(to.symbol);
  if (!fromPrice || !toPrice) throw new Error(`No rate for ${from.symbol} to ${to.symbol}`);
  const spread = SWAP_SPREAD_BPS[order] ?? SWAP_SPREAD_BPS.RECOMMENDED!;
  const fp = parseUnits(fromPrice, RATE_DECIMALS);
  const tp = parseUnits(toPrice, RATE_DECIMALS);
  // rate = fromPrice / toPrice * (1 - spread), kept at 18 decimals.
  const rateScaled = (fp * 10n ** BigInt(RATE_DECIMALS) * (10_000n - spread)) / (tp * 10_000n);
  const toAmount =
    (amount * rateScaled * 10n ** BigInt(to.decimals)) /
    (10n ** BigInt(from.decimals) * 10n ** BigInt(RATE_DECIMALS));
  return { rate: formatUnits(rateScaled, RATE_DECIMALS), toAmount };
}
