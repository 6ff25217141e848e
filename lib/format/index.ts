// Display formatting shared by every feature: amounts, USD, addresses, dates, block explorer links.
// Pure and browser-safe (no server-only imports), so server pages and client components agree.

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * A decimal string shown with at most `decimals` fraction digits (the asset's decimals), trailing zeros
 * trimmed, thousands grouped. Works on the string, never through a float, so 18-decimal amounts keep
 * every digit. Truncates rather than rounds: a balance must never be shown larger than it is.
 */
export function formatAmount(
  value: string | number | bigint | null | undefined,
  decimals = 18,
  options: { minFractionDigits?: number; maxFractionDigits?: number; group?: boolean } = {},
): string {
  if (value === null || value === undefined || value === '') return '—';
  const text =
    typeof value === 'string'
      ? value.trim()
      : typeof value === 'number'
        ? numberToPlain(value)
        : value.toString();
  const match = DECIMAL.exec(text);
  if (!match) return text;
  const [, sign = '', intRaw = '0', fracRaw = ''] = match;
  const max = Math.max(0, Math.min(decimals, options.maxFractionDigits ?? decimals));
  let frac = fracRaw.slice(0, max).replace(/0+$/, '');
  const min = Math.min(max, options.minFractionDigits ?? 0);
  if (frac.length < min) frac = frac.padEnd(min, '0');
  const int = intRaw.replace(/^0+(?=\d)/, '');
  const grouped = options.group === false ? int : groupThousands(int);
  const isZero = /^0*$/.test(int) && /^0*$/.test(frac);
  return `${isZero ? '' : sign}${grouped}${frac ? `.${frac}` : ''}`;
}

function numberToPlain(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  // Avoid exponent notation for very small or very large numbers.
  return Math.abs(value) < 1e21
    ? value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
    : value.toString();
}

/** "1,250.5 USDC": an amount with the asset's decimals, grouped, followed by its symbol. */
export function formatAssetAmount(
  value: string | number | bigint | null | undefined,
  decimals: number,
  symbol: string,
): string {
  const amount = formatAmount(value, decimals);
  return amount === '—' ? '—' : `${amount} ${symbol}`;
}

/**
 * A ratio such as a swap rate, rounded to `digits` significant digits and grouped: 0.000332333333333333
 * reads "0.000332333", 3000.123456 reads "3,000.12". Display only: the exact value stays in the data.
 */
export function formatSignificant(value: string | number | null | undefined, digits = 6): string {
  if (value === null || value === undefined || value === '') return '—';
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return typeof value === 'string' ? value : '—';
  if (n === 0) return '0';
  // Whole digits are never rounded away: a rate of 1,234,567.8 keeps all seven of them.
  const whole = Math.abs(n) >= 10 ** digits;
  return new Intl.NumberFormat('en-US', {
    ...(whole ? { maximumFractionDigits: 0 } : { maximumSignificantDigits: digits }),
    useGrouping: true,
  }).format(n);
}

/**
 * A range of amounts where either end may be open (null): "from 10,000 to 1,000,000 USDC",
 * "10,000 USDC or more (no upper limit)", "up to 1,000,000 USDC (no lower limit)", "any amount (no limit)".
 */
export function formatAmountRange(min: string | null, max: string | null, unit = '', decimals = 18): string {
  const suffix = unit ? ` ${unit}` : '';
  const lo = min === null ? null : formatAmount(min, decimals);
  const hi = max === null ? null : formatAmount(max, decimals);
  if (lo !== null && hi !== null) return `from ${lo} to ${hi}${suffix}`;
  if (lo !== null) return `${lo}${suffix} or more (no upper limit)`;
  if (hi !== null) return `up to ${hi}${suffix} (no lower limit)`;
  return 'any amount (no limit)';
}

const usdFormatter = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** US dollars with cents, e.g. "$1,234.50"; "—" when unknown. Accepts numbers and decimal strings. */
export function formatUsd(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return '—';
  // Intl renders -0 as "-$0.00".
  return usdFormatter.format(n === 0 ? 0 : n);
}

/** "0x1234…abcd": enough to recognise an address or hash, with the full value in a title or copy button. */
export function shortAddress(value: string | null | undefined, chars = 4): string {
  if (!value) return '—';
  const hasPrefix = value.startsWith('0x');
  const head = hasPrefix ? chars + 2 : chars;
  if (value.length <= head + chars + 1) return value;
  return `${value.slice(0, head)}…${value.slice(-chars)}`;
}

const dateTimeFormatter = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
  timeZone: 'UTC',
});
const dateFormatter = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  timeZone: 'UTC',
});

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * "03 Mar 2026, 14:05:09 UTC". Always UTC so the server-rendered text and the browser's hydration agree
 * and operators in different time zones read the same time.
 */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? `${dateTimeFormatter.format(date)} UTC` : '—';
}

/** "03 Mar 2026" (UTC). */
export function formatDate(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? dateFormatter.format(date) : '—';
}

/** "5 min ago", "in 2 h": for ages and deadlines; `now` is injectable for tests. */
export function formatRelative(
  value: string | number | Date | null | undefined,
  now: number = Date.now(),
): string {
  const date = toDate(value);
  if (!date) return '—';
  const diff = date.getTime() - now;
  const abs = Math.abs(diff);
  const units: Array<[number, string]> = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1_000, 's'],
  ];
  for (const [ms, unit] of units) {
    if (abs >= ms || unit === 's') {
      const n = Math.floor(abs / ms);
      if (unit === 's' && n < 5) return 'just now';
      return diff < 0 ? `${n} ${unit} ago` : `in ${n} ${unit}`;
    }
  }
  return '—';
}

export type ExplorerKind = 'tx' | 'address' | 'token';

// Block explorers per chain slug (as the custody API's Blockchain.slug), mainnet and testnet. Testnet
// explorers are the ones of the testnet the custody service uses for that chain (Sepolia, Amoy, ...).
const EXPLORERS: Record<string, { mainnet: string; testnet: string; style?: 'tron' | 'solana' }> = {
  ethereum: { mainnet: 'https://etherscan.io', testnet: 'https://sepolia.etherscan.io' },
  base: { mainnet: 'https://basescan.org', testnet: 'https://sepolia.basescan.org' },
  polygon: { mainnet: 'https://polygonscan.com', testnet: 'https://amoy.polygonscan.com' },
  'binance-smart-chain': { mainnet: 'https://bscscan.com', testnet: 'https://testnet.bscscan.com' },
  bsc: { mainnet: 'https://bscscan.com', testnet: 'https://testnet.bscscan.com' },
  arbitrum: { mainnet: 'https://arbiscan.io', testnet: 'https://sepolia.arbiscan.io' },
  optimism: { mainnet: 'https://optimistic.etherscan.io', testnet: 'https://sepolia-optimism.etherscan.io' },
  avalanche: { mainnet: 'https://snowtrace.io', testnet: 'https://testnet.snowtrace.io' },
  celo: { mainnet: 'https://celoscan.io', testnet: 'https://alfajores.celoscan.io' },
  tron: { mainnet: 'https://tronscan.org/#', testnet: 'https://nile.tronscan.org/#', style: 'tron' },
  solana: { mainnet: 'https://explorer.solana.com', testnet: 'https://explorer.solana.com', style: 'solana' },
};

/**
 * The block explorer page of a transaction hash or an address, or null when the chain is unknown or the
 * value is empty (callers then show the value without a link).
 */
export function explorerUrl(
  blockchainSlug: string | null | undefined,
  network: string | null | undefined,
  kind: ExplorerKind,
  value: string | null | undefined,
): string | null {
  if (!blockchainSlug || !value) return null;
  const explorer = EXPLORERS[blockchainSlug.toLowerCase()];
  if (!explorer) return null;
  const testnet = network !== 'mainnet';
  const base = testnet ? explorer.testnet : explorer.mainnet;
  const encoded = encodeURIComponent(value);
  if (explorer.style === 'tron') {
    const segment = kind === 'tx' ? 'transaction' : kind === 'token' ? 'token20' : 'address';
    return `${base}/${segment}/${encoded}`;
  }
  if (explorer.style === 'solana') {
    const segment = kind === 'tx' ? 'tx' : 'address';
    return `${base}/${segment}/${encoded}${testnet ? '?cluster=devnet' : ''}`;
  }
  return `${base}/${kind}/${encoded}`;
}

/** "USDC", "USDC (inactive)": short label of an asset for lists and pickers. */
export function assetLabel(asset: { symbol: string; isActive?: boolean } | null | undefined): string {
  if (!asset) return '—';
  return asset.isActive === false ? `${asset.symbol} (inactive)` : asset.symbol;
}
