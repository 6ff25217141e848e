// ERC-20 amounts in contract calls: which parameters and read results are token amounts, and the
// conversion between the token units people type (1.5 USDC) and the base units a contract takes (1500000).
import { type AbiFunction, formatUnits, maxUint256 } from 'viem';
import { formatAmount } from '@/lib/format';
import { checkAmount } from './amounts';

/** What the console knows of a token contract: from the wallet's assets, or read with symbol()/decimals(). */
export interface TokenUnits {
  symbol: string;
  decimals: number;
}

// ERC-20's own methods that move or allow an amount, their allowance helpers, and EIP-2612-style permits.
const AMOUNT_METHODS = /^(transfer|transferFrom|approve|increaseAllowance|decreaseAllowance)$|permit/i;
// How token contracts name the amount (OpenZeppelin, DS-Token `wad`, Compound `rawAmount`, `_value`, ...).
const AMOUNT_NAMES = new Set(['amount', 'value', 'wad', 'rawamount', 'addedvalue', 'subtractedvalue']);
// Reads that answer an amount of the token itself.
const AMOUNT_READS = new Set(['balanceOf', 'allowance', 'totalSupply']);
// An allowance may be unlimited; a transfer of the maximum uint256 is never meant.
const ALLOWANCE_METHODS = /approve|allowance|permit/i;

function normalizeName(name: string | undefined): string {
  return (name ?? '').replace(/^_+/, '').toLowerCase();
}

/** Whether input `index` of `fn` is an ERC-20 amount (a uint256 named like one, of a transfer/approve/permit). */
export function isTokenAmountParam(fn: AbiFunction, index: number): boolean {
  const input = fn.inputs[index];
  if (input?.type !== 'uint256') return false;
  return AMOUNT_METHODS.test(fn.name) && AMOUNT_NAMES.has(normalizeName(input.name));
}

export function hasTokenAmountParams(fn: AbiFunction): boolean {
  return fn.inputs.some((_, i) => isTokenAmountParam(fn, i));
}

/** balanceOf/allowance/totalSupply answering one uint256: a token amount in base units. */
export function isTokenAmountRead(fn: AbiFunction): boolean {
  return AMOUNT_READS.has(fn.name) && fn.outputs.length === 1 && fn.outputs[0]?.type === 'uint256';
}

/** Whether the console should know the token's decimals to build or show this call. */
export function needsTokenUnits(fn: AbiFunction): boolean {
  return hasTokenAmountParams(fn) || isTokenAmountRead(fn);
}

export type UnitsCheck = { ok: true; value: bigint } | { ok: false; message: string };

/**
 * An amount typed in token units ("1.5") as base units (1500000n). More fraction digits than the token's
 * decimals are refused, never rounded: the amount sent is exactly the amount typed. Zero is allowed (an
 * allowance is revoked with 0), and for allowances `max` is the unlimited amount (the largest uint256).
 */
export function parseTokenAmount(input: string, token: TokenUnits, fn?: AbiFunction): UnitsCheck {
  const text = input.trim();
  if (text.toLowerCase() === 'max') {
    if (fn && ALLOWANCE_METHODS.test(fn.name)) return { ok: true, value: maxUint256 };
    return { ok: false, message: `Enter an amount of ${token.symbol} (max is for allowances only).` };
  }
  if (/^0+(\.0+)?$/.test(text)) return { ok: true, value: 0n };
  const check = checkAmount(text, token.decimals, token.symbol);
  if (!check.ok) return check;
  return { ok: true, value: check.units };
}

/** Base units as token units, e.g. 1500000n with 6 decimals: "1.5"; every digit kept, thousands grouped. */
export function formatTokenUnits(base: bigint, token: TokenUnits): string {
  if (base === maxUint256) return 'unlimited';
  return formatAmount(formatUnits(base, token.decimals), token.decimals);
}

/** Base units for people: "1,500,000". */
function formatBaseUnits(base: bigint): string {
  return formatAmount(base.toString(), 0);
}

/** A base-unit amount given as a string (a stored parameter, a read result), or null when it is not one. */
export function baseUnitsOf(value: unknown): bigint | null {
  if (typeof value === 'bigint') return value >= 0n ? value : null;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : null;
  if (typeof value !== 'string' || !/^\d{1,78}$/.test(value.trim())) return null;
  return BigInt(value.trim());
}

/** "1.5 USDC (1,500,000 base units)": both ways of reading one amount. */
export function describeTokenAmount(base: bigint, token: TokenUnits): { units: string; base: string } {
  return {
    units: `${formatTokenUnits(base, token)} ${token.symbol}`,
    base: `${formatBaseUnits(base)} base units`,
  };
}

/**
 * The answer of a decimals() read as a number of decimals, or null when it is not one. uint8 in the
 * standard; anything larger is not a token the console can show in units.
 */
export function decimalsOf(value: unknown): number | null {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,3}$/.test(value)
        ? Number(value)
        : NaN;
  return Number.isInteger(n) && n >= 0 && n <= 255 ? n : null;
}

/** A symbol() answer fit to show: short printable text, else null. */
export function symbolOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text !== '' && text.length <= 20 && /^[\p{L}\p{N}._\-+$ ]+$/u.test(text) ? text : null;
}
