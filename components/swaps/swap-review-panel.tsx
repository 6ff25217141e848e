import { ReviewWarnings } from '@/components/approvals/review-warnings';
import { Badge } from '@/components/ui/badge';
import type { SwapReview } from '@/lib/approvals/swaps';
import { formatAmount, formatAssetAmount, formatSignificant, formatUsd } from '@/lib/format';

export interface SwapReviewPanelProps {
  review: SwapReview;
  requiredApprovals?: number;
}

export function SwapReviewPanel({ review, requiredApprovals }: SwapReviewPanelProps) {
  return (
    <section aria-labelledby="swap-review-heading" className="grid gap-4 rounded-lg border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="swap-review-heading" className="text-lg font-semibold">
          Review
        </h2>
        {review.wallet.network === 'mainnet' ? (
          <Badge variant="destructive">Mainnet</Badge>
        ) : (
          <Badge variant="outline">Testnet</Badge>
        )}
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-muted-foreground">Wallet</dt>
          <dd>
            {review.wallet.name} · {review.wallet.blockchain}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">From address</dt>
          <dd className="font-mono text-xs break-all">
            {review.source.name ? `${review.source.name} ` : ''}
            {review.source.address}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Swap</dt>
          <dd>
            {formatAmount(review.from.amount, review.from.decimals)} {review.from.symbol} → {review.to.symbol}{' '}
            ({formatUsd(review.amountUsd)})
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">{review.from.symbol} balance of the address</dt>
          <dd>
            {review.from.balance === null
              ? '—'
              : formatAssetAmount(review.from.balance, review.from.decimals, review.from.symbol)}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Expected rate</dt>
          <dd>
            {review.expectedRate === null
              ? 'unknown'
              : `1 ${review.from.symbol} ≈ ${formatSignificant(review.expectedRate)} ${review.to.symbol} (expected)`}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Expected to receive</dt>
          <dd>
            {review.expectedToAmount === null
              ? 'unknown'
              : `≈ ${formatAssetAmount(review.expectedToAmount, review.to.decimals, review.to.symbol)} (expected, before the venue's spread)`}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Order</dt>
          <dd>
            {review.order}: {review.orderExplanation}
          </dd>
        </div>
        {requiredApprovals !== undefined ? (
          <div>
            <dt className="text-muted-foreground">Approvals needed</dt>
            <dd>{requiredApprovals}</dd>
          </div>
        ) : null}
        {review.metadata ? (
          <div className="sm:col-span-2">
            <dt className="text-muted-foreground">Metadata</dt>
            <dd className="font-mono text-xs break-all">{JSON.stringify(review.metadata)}</dd>
          </div>
        ) : null}
      </dl>
      <ReviewWarnings warnings={review.warnings} />
    </section>
  );
}
