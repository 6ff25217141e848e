// The review of a retry of a FAILED transaction (#1): the transaction as the service showed it.
import { ReviewWarnings } from '@/components/approvals/review-warnings';
import { Badge } from '@/components/ui/badge';
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
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="review-heading" className="text-lg font-semibold">
          Review
        </h2>
        <Badge variant={review.wallet.network === 'mainnet' ? 'destructive' : 'outline'}>
          {review.wallet.network === 'mainnet' ? 'Mainnet' : 'Testnet'}
        </Badge>
      </div>
      <p className="text-sm">
        Sends the failed transaction to the custody service again (#1): if the service accepts, the payment is
        attempted once more.
      </p>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-muted-foreground">Wallet</dt>
          <dd>
            {review.wallet.name} · {review.wallet.blockchain}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Transaction</dt>
          <dd className="font-mono text-xs break-all">{tx.id}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Amount</dt>
          <dd>{tx.amount && tx.symbol ? `${tx.amount} ${tx.symbol}` : 'Not shown by the service'}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Recipient</dt>
          <dd className="font-mono text-xs break-all">{tx.recipientAddress ?? '—'}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Status when requested</dt>
          <dd>{tx.status ?? 'Unknown'}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Reference</dt>
          <dd className="font-mono text-xs">{tx.reference ?? '—'}</dd>
        </div>
        {requiredApprovals ? (
          <div>
            <dt className="text-muted-foreground">Approvals needed</dt>
            <dd>{requiredApprovals}</dd>
          </div>
        ) : null}
      </dl>
      <ReviewWarnings warnings={review.warnings} />
    </section>
  );
}
