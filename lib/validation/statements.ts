// Month-end statements as the browser sees them: the period and asset in the URL (nuqs parsers shared by the
// server page, the client controls and the CSV route), and the statement's shape. Amounts are decimal strings
// formatted from base units on the server; nothing here does arithmetic on money.
import { createLoader, createSerializer, parseAsString } from 'nuqs/server';
import { isCalendarDay } from './calendar-day';

/** The calendar month before `now`'s, in UTC: first and last day, inclusive. */
export function lastCalendarMonth(now: Date): { from: string; to: string } {
  const firstOfThis = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const firstOfLast = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
  return {
    from: new Date(firstOfLast).toISOString().slice(0, 10),
    to: new Date(firstOfThis - 86_400_000).toISOString().slice(0, 10),
  };
}

/** URL state of the statement page: first and last day (UTC, inclusive) and the asset's symbol. */
export const statementSearchParsers = {
  from: parseAsString.withDefault(''),
  to: parseAsString.withDefault(''),
  asset: parseAsString.withDefault(''),
};

const loadStatementSearch = createLoader(statementSearchParsers);
export const serializeStatementSearch = createSerializer(statementSearchParsers);

export interface StatementSearch {
  from: string;
  to: string;
  asset: string;
}

export type StatementPeriodCheck = { ok: true; from: string; to: string } | { ok: false; error: string };

/** The period asked for, the last calendar month when none is given; a bad or reversed period is a sentence. */
export function statementPeriodOf(search: { from: string; to: string }, now: Date): StatementPeriodCheck {
  if (!search.from && !search.to) return { ok: true, ...lastCalendarMonth(now) };
  const from = search.from || search.to;
  const to = search.to || search.from;
  if (!isCalendarDay(from) || !isCalendarDay(to))
    return { ok: false, error: 'Dates are written YYYY-MM-DD.' };
  if (from > to) return { ok: false, error: 'The period ends before it starts.' };
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
  if (days > 366) return { ok: false, error: 'A statement covers at most one year.' };
  return { ok: true, from, to };
}

export function parseStatementSearch(
  input: Record<string, string | string[] | undefined> | URLSearchParams,
): StatementSearch {
  return loadStatementSearch(input);
}

/** One transaction of the period as it moves the asset, with where its figures come from. */
export interface StatementLine {
  transactionId: string;
  reference: string;
  type: string;
  createdAt: string;
  /** Signed: + into the wallet, - out of it (fees included). */
  net: string;
  deposit: string;
  withdrawal: string;
  swapIn: string;
  swapOut: string;
  fee: string;
  /** `signed`: the copy the service signed and delivered by webhook; `listed`: its list as it is now. */
  source: 'signed' | 'listed';
}

/** One reason the check does not balance, with both values. */
export interface StatementDifference {
  /** The transaction, or null for the opening balance line. */
  transactionId: string | null;
  reference: string | null;
  what: string;
  /** The value the service lists now (or the opening the console derives now). */
  listed: string;
  /** The value the service signed at the time (or the closing the console audited earlier). */
  signed: string;
  /** Effect on the check: signed minus listed. */
  amount: string;
}

export interface Statement {
  walletId: string;
  walletName: string;
  asset: { symbol: string; name: string | null; decimals: number; native: boolean };
  /** First and last day, UTC, inclusive. */
  from: string;
  to: string;
  /** Whether the service listed the whole wallet or only the known child addresses (#3). */
  scope: 'wallet' | 'child-addresses';
  opening: { amount: string | null; source: 'recorded' | 'derived'; recordedAt: string | null };
  deposits: string;
  withdrawals: string;
  swapsIn: string;
  swapsOut: string;
  fees: string;
  /** opening + deposits + swaps in - withdrawals - swaps out - fees. */
  expectedClosing: string | null;
  closing: { amount: string | null };
  /** expectedClosing - closing; null when the service gives no balance. */
  difference: string | null;
  lines: StatementLine[];
  differences: StatementDifference[];
  /** Transactions of the period not settled yet: not counted. */
  pending: number;
  /** Why a figure could not be computed (no balances extension, list cut short). */
  notes: string[];
}
