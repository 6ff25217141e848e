// Amount rules of the sandbox: decimal strings in, bigint base units inside, never floats.
import { formatUnits, parseUnits } from 'viem';

export type AmountCheck = { ok: true; value: bigint } | { ok: false; message: string };

const DECIMAL = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** A positive decimal string with at most `decimals` fraction digits, as base units. */
export function parseAmount(input: unknown, decimals: number, symbol = 'the asset'): AmountCheck {
  if (typeof input !== 'string' && typeof input !== 'number') {
    return { ok: false, message: 'Amount must be a decimal string' };
  }
  const text = String(input).trim();
  if (!DECIMAL.test(text)) return { ok: false, message: `Amount "${text}" is not a positive decimal number` };
  const fraction = text.split('.')[1] ?? '';
  if (fraction.length > decimals) {
    return {
      ok: false,
      message: `Amount "${text}" has more than ${decimals} decimal places allowed for ${symbol}`,
    };
  }
  const value = parseUnits(text, decimals);
  if (value <= 0n) return { ok: false, message: 'Amount must be greater than zero' };
  return { ok: true, value };
}

/** USD value of `value` base units at a decimal USD price, in whole cents (rounded down). */
export function usdCents(value: bigint, decimals: number, usdPrice: string): bigint {
  const priceScaled = parseUnits(usdPrice, 8);
  return (value * priceScaled * 100n) / (10n ** BigInt(decimals) * 10n ** 8n);
}

/** USD value of `value` base units at a decimal USD price, rounded down to cents, as a decimal string. */
export function usdValue(value: bigint, decimals: number, usdPrice: string): string {
  return formatUnits(usdCents(value, decimals, usdPrice), 2);
}

/**
 * Cents as a JSON number of dollars. Totals are added up in cents and divided once, so a total equals
 * the sum of the per-asset values it is made of (`usdValue` drops trailing zeros: never parse it back).
 */
export function centsToDollars(cents: bigint): number {
  return Number(cents) / 100;
}

/** Adds a signed delta to a balance; refuses to go below zero (the ledger never overdraws). */
export function applyDelta(balance: bigint, delta: bigint): bigint {
  const next = balance + delta;
  if (next < 0n) throw new InsufficientBalanceError(balance, -delta);
  return next;
}

export class InsufficientBalanceError extends Error {
  constructor(
    readonly available: bigint,
    readonly required: bigint,
  ) {
    super('Insufficient balance');
    this.name = 'InsufficientBalanceError';
  }
}
