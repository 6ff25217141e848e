// Spending limits against the amounts of a form as they are typed (the withdrawal form): apart from limits.ts so
// the pages that only show limits do not load the decimal arithmetic.
import { subtractDecimal, sumDecimals, usdValueOf } from '@/lib/validation/amounts';
import type { LimitRemaining } from './limits';

/** One row of a form as typed: a checked amount of an asset (null while it does not read as one). */
export interface TypedAmount {
  amount: string | null;
  symbol: string;
  decimals: number;
  priceUsd: string | null;
}

/** What the amounts typed so far add up to against one limit, and whether that is more than it leaves. */
export interface TypedAgainstLimit {
  ruleId: string;
  /** In the limit's unit (USD or the asset); null when a USD value is missing for a row it counts. */
  total: string | null;
  over: boolean;
}

/**
 * The typed amounts against each limit that is known before the review (destination rules are counted per
 * recipient there): a USD rule adds the rows' USD values (of its one asset, when it has one), an asset rule the
 * rows of its asset. A limit no typed row counts toward is left out.
 */
export function typedAgainstLimits(limits: LimitRemaining[], rows: TypedAmount[]): TypedAgainstLimit[] {
  const out: TypedAgainstLimit[] = [];
  for (const limit of limits) {
    if (limit.remaining === null) continue;
    const counted = rows.filter(
      (row) =>
        row.amount !== null &&
        (limit.unit === 'usd'
          ? !limit.onlySymbol || row.symbol === limit.onlySymbol
          : row.symbol === limit.symbol),
    );
    if (counted.length === 0) continue;
    if (limit.unit === 'usd') {
      const values = counted.map((row) => usdValueOf(row.amount!, row.priceUsd));
      if (values.some((v) => v === null)) {
        out.push({ ruleId: limit.ruleId, total: null, over: false });
        continue;
      }
      const cents = values.reduce((sum: number, v) => sum + Math.round((v ?? 0) * 100), 0);
      out.push({
        ruleId: limit.ruleId,
        total: (cents / 100).toFixed(2),
        over: cents > Math.round(Number(limit.remaining) * 100),
      });
      continue;
    }
    const decimals = Math.max(...counted.map((row) => row.decimals), decimalPlaces(limit.remaining));
    const total = sumDecimals(
      counted.map((row) => row.amount!),
      decimals,
    );
    const beyond = subtractDecimal(total, limit.remaining, decimals);
    out.push({ ruleId: limit.ruleId, total, over: !beyond.startsWith('-') && !/^0(\.0*)?$/.test(beyond) });
  }
  return out;
}

const decimalPlaces = (value: string) => value.split('.')[1]?.length ?? 0;
