// What each spending limit leaves before a request: the limit, what its window already counts, and the rest.
import { breachWords, type LimitRemaining, limitAmountWords, windowWords } from '@/lib/approvals/limits';

function amount(limit: LimitRemaining, value: string): string {
  return limitAmountWords(value, limit.unit, limit.symbol);
}

export function RemainingLimits({ limits }: { limits: LimitRemaining[] }) {
  if (limits.length === 0) return null;
  return (
    <section aria-labelledby="remaining-limits-heading" className="grid gap-2 rounded-lg border p-4">
      <h3 id="remaining-limits-heading" className="font-medium">
        Spending limits: remaining
      </h3>
      <ul className="grid gap-2 text-sm">
        {limits.map((limit) => (
          <li key={limit.ruleId} aria-label={limit.rule}>
            <span className="block">{limit.rule}</span>
            {limit.remaining !== null && limit.used !== null ? (
              <span className="block font-medium">
                Remaining {amount(limit, limit.remaining)} of {amount(limit, limit.limit)} (
                {amount(limit, limit.used)} counted in the last {windowWords(limit.windowHours)})
              </span>
            ) : (
              <span className="block text-muted-foreground">
                Counted per recipient address: see the review.
              </span>
            )}
            <span className="block text-muted-foreground">Above it: {breachWords(limit)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
