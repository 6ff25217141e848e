import 'server-only';

// US-dollar values that decide how many approvers a request needs, in exact decimal arithmetic: an amount
// times a price, rounded half up to the cent, summed and compared without binary floating point, so a
// request just above the threshold is never counted as just below it.

/** A non-negative decimal as an integer of `scale` decimal places. */
interface Fixed {
  units: bigint;
  scale: number;
}

const DECIMAL = /^(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Reads "12", "0.5", "1.5e-7" or a finite non-negative number; null for anything else. */
function parse(value: string | number): Fixed | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  const exponent = Number(match[3] ?? '0');
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 1_000) return null;
  let units = BigInt(whole + fraction);
  let scale = fraction.length - exponent;
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units, scale };
}

function rescale(value: Fixed, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

/** Rounds half up to whole cents. */
function toCents(value: Fixed): bigint {
  if (value.scale <= 2) return rescale(value, 2);
  const divisor = 10n ** BigInt(value.scale - 2);
  const cents = value.units / divisor;
  return value.units % divisor >= divisor / 2n ? cents + 1n : cents;
}

function centsText(cents: bigint): string {
  const text = cents.toString().padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

/** A USD value as a decimal string with two places ("1234.50"). */
export type UsdAmount = string;

/** The USD value of `amount` at `price` per unit, to the cent; null when either is unknown or unreadable. */
export function usdOf(amount: string, price: string | number | null | undefined): UsdAmount | null {
  if (price === null || price === undefined || price === '') return null;
  const a = parse(amount);
  const p = parse(price);
  if (!a || !p) return null;
  return centsText(toCents({ units: a.units * p.units, scale: a.scale + p.scale }));
}

/** The sum of USD values; null when any is unknown (an unknown part makes the whole unknown). */
export function sumUsd(values: ReadonlyArray<UsdAmount | null>): UsdAmount | null {
  let cents = 0n;
  for (const value of values) {
    const parsed = value === null ? null : parse(value);
    if (!parsed) return null;
    cents += toCents(parsed);
  }
  return centsText(cents);
}

/** -1, 0 or 1 as `a` is below, equal to or above `b`; both non-negative decimals or numbers. */
export function compareUsd(a: string | number, b: string | number): -1 | 0 | 1 {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) throw new RangeError('Not a non-negative decimal amount.');
  const scale = Math.max(x.scale, y.scale);
  const left = rescale(x, scale);
  const right = rescale(y, scale);
  return left === right ? 0 : left > right ? 1 : -1;
}

/** For display fields that carry dollars as a number (reviews, audit details). */
export function usdNumber(value: UsdAmount | null): number | null {
  return value === null ? null : Number(value);
}
