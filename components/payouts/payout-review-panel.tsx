'use client';
// A payout file's review: what leaves which source, totals per asset (added up from the rows shown), the fee
// estimate, the service batches, and every row with its warnings. Once sent, each batch's outcome.
import { LimitCheckTable } from '@/components/approvals/limit-check';
import { ReviewWarnings } from '@/components/approvals/review-warnings';
import { type ReviewFact, ReviewFacts } from '@/components/operations/review-facts';
import { ReviewHeader } from '@/components/operations/review-header';
import { Badge } from '@/components/ui/badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import {
  type PayoutAssetTotal,
  type PayoutBatchShown,
  type PayoutResult,
  type PayoutReview,
  payoutBatchShown,
  payoutTotals,
} from '@/lib/approvals/payouts';
import type { ReviewSource } from '@/lib/approvals/types';
import { formatAmount, formatDateTime, formatUsd } from '@/lib/format';
import { PayoutPaymentsTable } from './payout-tables';

export interface PayoutReviewPanelProps {
  review: PayoutReview;
  requiredApprovals?: number;
}

/** Where a payout's money leaves from, as a review fact. */
export function sourceFact(source: ReviewSource): ReviewFact {
  return {
    label: 'From',
    className: 'font-mono text-xs break-all',
    value: `${source.kind === 'master' ? 'Master wallet' : (source.name ?? 'Child address')} ${source.address}`,
  };
}

/** Totals per asset with the number of payments each adds up. */
export function TotalsList({ totals }: { totals: PayoutAssetTotal[] }) {
  return (
    <ul aria-label="Totals per asset">
      {totals.map((t) => (
        <li key={t.symbol}>
          {formatAmount(t.amount)} {t.symbol} ({t.rows} {t.rows === 1 ? 'payment' : 'payments'})
        </li>
      ))}
    </ul>
  );
}

export function PayoutReviewPanel({ review, requiredApprovals }: PayoutReviewPanelProps) {
  // Totals come from the rows on screen, never from a separate figure.
  const totals = payoutTotals(review.rows);
  const batchSizes = review.batches.map((b) => b.rows).join(', ');
  return (
    <section aria-labelledby="review-heading" className="grid gap-4 rounded-lg border p-4">
      <ReviewHeader headingId="review-heading" network={review.wallet.network}>
        <Badge variant="secondary">Payout file</Badge>
      </ReviewHeader>
      <ReviewFacts
        requiredApprovals={requiredApprovals}
        facts={[
          { label: 'Wallet', value: `${review.wallet.name} · ${review.wallet.blockchain}` },
          sourceFact(review.source),
          { label: 'File', value: review.fileName, className: 'break-all' },
          {
            label: 'Payments and batches',
            value: `${review.rows.length} payments in ${review.batches.length} ${review.batches.length === 1 ? 'batch' : 'batches'} (${batchSizes})`,
          },
          { label: 'Totals', value: <TotalsList totals={totals} /> },
          { label: 'Total value', value: formatUsd(review.totals.usd) },
          {
            label: 'Network fee estimate',
            value: `${review.fee.total === null ? 'unavailable' : `${formatAmount(review.fee.total)} ${review.fee.symbol}`} (${formatUsd(review.fee.totalUsd)})`,
          },
          {
            label: `${review.nativeBalance.symbol} balance now → after`,
            value: `${review.nativeBalance.before === null ? '—' : formatAmount(review.nativeBalance.before)} → ${review.nativeBalance.after === null ? '—' : formatAmount(review.nativeBalance.after)} ${review.nativeBalance.symbol}`,
          },
        ]}
      />
      {review.fee.error ? <p className="text-sm text-destructive">Fee estimate: {review.fee.error}</p> : null}
      <ReviewWarnings warnings={review.warnings} />
      {review.limits ? <LimitCheckTable check={review.limits} /> : null}
      <PayoutPaymentsTable rows={review.rows} />
    </section>
  );
}

const BATCH_STATE_LABELS: Record<PayoutBatchShown, string> = {
  not_sent: 'Not sent yet',
  submitted: 'Submitted',
  settled: 'Settled',
  failed: 'Failed',
  failed_on_chain: 'Failed on chain',
  unknown: 'Outcome unknown',
};

const BATCH_STATE_VARIANTS = {
  not_sent: 'secondary',
  submitted: 'secondary',
  settled: 'success',
  failed: 'destructive',
  failed_on_chain: 'destructive',
  unknown: 'warning',
} as const satisfies Record<PayoutBatchShown, string>;

/**
 * Each batch's outcome at the service: submitted (then settled, or failed on chain, as its payments' transactions
 * end), refused with the service's message, or in doubt.
 */
export function PayoutBatches({
  result,
  items,
}: {
  result: PayoutResult;
  items: ReadonlyArray<{ index: number; status: string | null }>;
}) {
  return (
    <section aria-labelledby="batches-heading" className="grid gap-2">
      <h2 id="batches-heading" className="text-lg font-semibold">
        Batches
      </h2>
      <Table aria-label="Batches">
        <TableHeader>
          <TableRow>
            <TableHead>Batch</TableHead>
            <TableHead>Payments</TableHead>
            <TableHead>Outcome</TableHead>
            <TableHead>Details</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {result.batches.map((batch) => {
            const shown = payoutBatchShown(batch, items);
            return (
              <TableRow key={batch.number}>
                <TableCell>{batch.number}</TableCell>
                <TableCell>
                  {batch.to - batch.from} (rows {batch.from + 1}–{batch.to})
                </TableCell>
                <TableCell>
                  <Badge variant={BATCH_STATE_VARIANTS[shown]}>{BATCH_STATE_LABELS[shown]}</Badge>
                </TableCell>
                <TableCell className="text-sm">
                  {batch.message ? <span className="block wrap-anywhere">{batch.message}</span> : null}
                  {batch.linked ? (
                    <span className="block text-muted-foreground">Found at the service by reference</span>
                  ) : null}
                  {batch.state === 'failed' ? (
                    <span className="block text-muted-foreground">
                      An approver may send it again: a resubmission sends only the batches not accepted.
                    </span>
                  ) : null}
                  {batch.state === 'not_sent' ? (
                    <span className="block text-muted-foreground">Waits for the batches before it.</span>
                  ) : null}
                  {batch.at ? (
                    <span className="block text-xs text-muted-foreground">{formatDateTime(batch.at)}</span>
                  ) : null}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </section>
  );
}
