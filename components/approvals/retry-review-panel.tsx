// The review of a retry of a FAILED transaction (#1): the transaction as the service showed it.
import { ReviewWarnings } from '@/components/approvals/review-warnings';
import { ReviewFacts } from '@/components/operations/review-facts';
import { ReviewHeader } from '@/components/operations/review-header';
import type { RetryReview } from '@/lib/approvals/requests';

export function RetryReviewPanel({
  review,
  requiredApprovals,
}: {
  review: RetryReview;
  requiredApprovals?: number;
}) {
  const tx = review.transaction;
  return (
    <section aria-labelledby="review-heading" className="grid gap-4 rounded-lg border p-4">
      <ReviewHeader headingId="review-heading" network={review.wallet.network} />
      <p className="text-sm">
        Sends the failed transaction to the custody service again (#1): if the service accepts, the payment is
        attempted once more.
      </p>
      <ReviewFacts
        requiredApprovals={requiredApprovals || undefined}
        facts={[
          { label: 'Wallet', value: `${review.wallet.name} · ${review.wallet.blockchain}` },
          { label: 'Transaction', value: tx.id, className: 'font-mono text-xs break-all' },
          {
            label: 'Amount',
            value: tx.amount && tx.symbol ? `${tx.amount} ${tx.symbol}` : 'Not shown by the service',
          },
          { label: 'Recipient', value: tx.recipientAddress ?? '—', className: 'font-mono text-xs break-all' },
          { label: 'Status when requested', value: tx.status ?? 'Unknown' },
          { label: 'Reference', value: tx.reference ?? '—', className: 'font-mono text-xs' },
        ]}
      />
      <ReviewWarnings warnings={review.warnings} />
    </section>
  );
}
