import type * as React from 'react';
import { cn } from '@/lib/utils';

export interface ReviewFact {
  label: React.ReactNode;
  value: React.ReactNode;
  /** Classes of the value: `font-mono text-xs break-all` for addresses and hashes. */
  className?: string;
  /** Spans both columns (metadata, hashes). */
  wide?: boolean;
}

export interface ReviewFactsProps {
  /** Facts in reading order; `false` and `null` leave a fact out. */
  facts: Array<ReviewFact | false | null | undefined>;
  /** How many approvals the request needs, shown last when known. */
  requiredApprovals?: number;
}

/** What a review states about an operation (wallet, source, amounts, fees...), as a two-column list. */
export function ReviewFacts({ facts, requiredApprovals }: ReviewFactsProps) {
  const shown = facts.filter((f): f is ReviewFact => Boolean(f));
  if (requiredApprovals !== undefined) shown.push({ label: 'Approvals needed', value: requiredApprovals });
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
      {shown.map((fact, i) => (
        // Facts have no id of their own and never move: the position is stable.
        <div key={i} className={fact.wide ? 'sm:col-span-2' : undefined}>
          <dt className="text-muted-foreground">{fact.label}</dt>
          <dd className={cn(fact.className)}>{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}
