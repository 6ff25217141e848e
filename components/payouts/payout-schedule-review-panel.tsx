'use client';
// A payout schedule's review: when it runs (in words, and its next three times), from where, and one run's
// payments with the same checks and table as a payout file's, totals per asset per run.
import { ReviewWarnings } from '@/components/approvals/review-warnings';
import { ReviewFacts } from '@/components/operations/review-facts';
import { ReviewHeader } from '@/components/operations/review-header';
import { Badge } from '@/components/ui/badge';
import type { PayoutScheduleReview } from '@/lib/approvals/payout-schedules';
import { formatDateTime } from '@/lib/format';
import { sourceFact, TotalsList } from './payout-review-panel';
import { PayoutPaymentsTable } from './payout-tables';

export interface PayoutScheduleReviewPanelProps {
  review: PayoutScheduleReview;
  requiredApprovals?: number;
}

export function PayoutScheduleReviewPanel({ review, requiredApprovals }: PayoutScheduleReviewPanelProps) {
  return (
    <section aria-labelledby="review-heading" className="grid min-w-0 gap-4 rounded-lg border p-4">
      <ReviewHeader headingId="review-heading" network={review.wallet.network}>
        <Badge variant="secondary">Payout schedule</Badge>
      </ReviewHeader>
      <p className="text-sm">
        Approving keeps this schedule; it moves nothing by itself. Each run creates a payout request in the
        requester’s name that another person approves, as any payout.
      </p>
      <ReviewFacts
        requiredApprovals={requiredApprovals}
        facts={[
          { label: 'Schedule', value: review.name, className: 'break-all' },
          { label: 'Wallet', value: `${review.wallet.name} · ${review.wallet.blockchain}` },
          sourceFact(review.source),
          { label: 'Runs', value: review.cadence },
          {
            label: 'Next runs',
            value: (
              <ul aria-label="Next runs">
                {review.nextRuns.map((at) => (
                  <li key={at}>{formatDateTime(at)}</li>
                ))}
              </ul>
            ),
          },
          { label: 'Each run pays', value: <TotalsList totals={review.totals} /> },
        ]}
      />
      <ReviewWarnings warnings={review.warnings} />
      <PayoutPaymentsTable rows={review.rows} />
    </section>
  );
}
