// What each spending limit leaves before a request: the limit, what its window already counts, and the rest; and,
// as amounts are typed, what they add up to against it, flagged when that is more than it leaves.
import { breachWords, type LimitRemaining, limitAmountWords, windowWords } from '@/lib/approvals/limits';
import type { TypedAgainstLimit } from '@/lib/approvals/typed-limits';

function amount(limit: LimitRemaining, value: string): string {
  return limitAmountWords(value, limit.unit, limit.symbol);
}

export function RemainingLimits({
  limits,
  typed = [],
}: {
  limits: LimitRemaining[];
  typed?: TypedAgainstLimit[];
}) {
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
            <TypedLine limit={limit} typed={typed.find((t) => t.ruleId === limit.ruleId)} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What the amounts typed so far add up to against the limit; flagged when more than it leaves. */
function TypedLine({ limit, typed }: { limit: LimitRemaining; typed: TypedAgainstLimit | undefined }) {
  if (!typed) return null;
  if (typed.total === null)
    return (
      <span className="block text-muted-foreground">
        This request: no USD price for an amount typed, so the review counts it.
      </span>
    );
  if (!typed.over)
    return <span className="block">This request: {amount(limit, typed.total)}, within it.</span>;
  return (
    <span className="block font-medium text-destructive">
      This request: {amount(limit, typed.total)}, more than the {amount(limit, limit.remaining ?? '0')} it
      leaves: {limit.onBreach === 'refuse' ? 'it would be refused.' : `it ${breachWords(limit)}.`}
    </span>
  );
}
