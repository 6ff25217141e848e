// Decimal amount strings as people type them and as the custody API takes them (Withdrawal item `amount`).
// Shared by forms and server actions: the same input gets the same message in both places.
import { formatUnits, parseUnits } from 'viem';

export type AmountCheck = { ok: true; value: string; units: bigint } | { ok: false; message: string };

const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;
// ERC-20 balances are uint256: anything larger cannot exist on chain.
const MAX_UINT256 = 2n ** 256n - 1n;

/**
 * Checks a positive decimal amount with at most `decimals` fraction digits, written in full (no exponent,
 * no sign, no separators). Returns the canonical string (no leading zeros, no trailing fraction zeros) and
 * the integer amount in base units.
 */
export function checkAmount(input: string, decimals: number, symbol = 'This asset'): AmountCheck {
  const value = input.trim();
  if (value === '') return { ok: false, message: 'Enter an amount.' };
  if (/\s/.test(value)) return { ok: false, message: 'Remove the spaces from the amount.' };
  if (/^0x/i.test(value))
    return { ok: false, message: 'Enter the amount as a decimal number, not hexadecimal.' };
  if (/[eE]/.test(value) && /\d/.test(value))
    return { ok: false, message: 'Write the amount in full, without exponent notation (1500, not 1.5e3).' };
  if (value.startsWith('-')) return { ok: false, message: 'The amount must be positive.' };
  if (value.startsWith('+')) return { ok: false, message: 'Write the amount without a sign.' };
  if (value.includes(','))
    return { ok: false, message: 'Use a dot for decimals and no thousands separators (1234.5).' };
  if (value.startsWith('.')) return { ok: false, message: 'Write a digit before the dot (0.5, not .5).' };
  if (value.endsWith('.')) return { ok: false, message: 'Write digits after the dot, or remove it.' };
  if (!PLAIN_DECIMAL.test(value)) return { ok: false, message: 'Enter a decimal number, e.g. 10.5.' };
  const tooPrecise = decimalsMessage(value, decimals, symbol);
  if (tooPrecise) return { ok: false, message: tooPrecise };
  const units = parseUnits(value, decimals);
  if (units === 0n) return { ok: false, message: 'The amount must be greater than 0.' };
  if (units > MAX_UINT256) return { ok: false, message: 'The amount is too large.' };
  return { ok: true, value: formatUnits(units, decimals), units };
}

/**
 * The message for an amount written with more fraction digits than the asset has (trailing zeros do not
 * count), or null when the precision fits or the text is not a plain decimal.
 */
export function decimalsMessage(input: string, decimals: number, symbol = 'This asset'): string | null {
  const value = input.trim();
  if (!PLAIN_DECIMAL.test(value)) return null;
  const fraction = value.split('.')[1] ?? '';
  if (fraction.replace(/0+$/, '').length <= decimals) return null;
  return decimals === 0
    ? `${symbol} has no decimals: enter a whole number.`
    : `${symbol} has ${decimals} decimals: use at most ${decimals} digits after the dot.`;
}

/**
 * Whether `units` (base units of an asset with `decimals`) exceed a balance. An unknown balance (null,
 * empty or unreadable) never counts as exceeded: the custody service refuses what the source cannot pay.
 */
export function exceedsBalance(units: bigint, balance: string | null | undefined, decimals: number): boolean {
  if (balance === null || balance === undefined || !PLAIN_DECIMAL.test(balance.trim())) return false;
  return units > parseUnits(balance.trim(), decimals);
}

/** USD value of an amount at a price, as a number of dollars (display only; never used for money movement). */
export function usdValueOf(amount: string, price: string | number | null | undefined): number | null {
  if (price === null || price === undefined || price === '') return null;
  const a = Number(amount);
  const p = Number(price);
  if (!Number.isFinite(a) || !Number.isFinite(p)) return null;
  return Math.round(a * p * 100) / 100;
}

/** Exact decimal subtraction `a - b` with `decimals` places; negative results keep their sign. */
export function subtractDecimal(a: string, b: string, decimals: number): string {
  return formatUnits(parseUnits(a, decimals) - parseUnits(b, decimals), decimals);
}

/** Exact decimal sum with `decimals` places. */
export function sumDecimals(values: string[], decimals: number): string {
  return formatUnits(
    values.reduce((total, v) => total + parseUnits(v, decimals), 0n),
    decimals,
  );
}
