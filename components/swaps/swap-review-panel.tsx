import { LimitCheckTable } from '@/components/approvals/limit-check';
import { ReviewWarnings } from '@/components/approvals/review-warnings';
import { ReviewFacts } from '@/components/operations/review-facts';
import { ReviewHeader } from '@/components/operations/review-header';
import type { SwapReview } from '@/lib/approvals/swaps';
import { formatAmount, formatAssetAmount, formatSignificant, formatUsd } from '@/lib/format';

export interface SwapReviewPanelProps {
  review: SwapReview;
  requiredApprovals?: number;
}

export function SwapReviewPanel({ review, requiredApprovals }: SwapReviewPanelProps) {
  return (
    <section aria-labelledby="swap-review-heading" className="grid gap-4 rounded-lg border p-4">
      <ReviewHeader headingId="swap-review-heading" network={review.wallet.network} />
      <ReviewFacts
        requiredApprovals={requiredApprovals}
        facts={[
          { label: 'Wallet', value: `${review.wallet.name} · ${review.wallet.blockchain}` },
          {
            label: 'From address',
            value: `${review.source.name ? `${review.source.name} ` : ''}${review.source.address}`,
            className: 'font-mono text-xs break-all',
          },
          {
            label: 'Swap',
            value: `${formatAmount(review.from.amount, review.from.decimals)} ${review.from.symbol} → ${review.to.symbol} (${formatUsd(review.amountUsd)})`,
          },
          {
            label: `${review.from.symbol} balance of the address`,
            value:
              review.from.balance === null
                ? '—'
                : formatAssetAmount(review.from.balance, review.from.decimals, review.from.symbol),
          },
          {
            label: 'Expected rate',
            value:
              review.expectedRate === null
                ? 'unknown'
                : `1 ${review.from.symbol} ≈ ${formatSignificant(review.expectedRate)} ${review.to.symbol} (expected)`,
          },
          {
            label: 'Expected to receive',
            value:
              review.expectedToAmount === null
                ? 'unknown'
                : `≈ ${formatAssetAmount(review.expectedToAmount, review.to.decimals, review.to.symbol)} (expected, before the venue's spread)`,
          },
          { label: 'Order', value: `${review.order}: ${review.orderExplanation}` },
          review.metadata
            ? {
                label: 'Metadata',
                value: JSON.stringify(review.metadata),
                className: 'font-mono text-xs break-all',
                wide: true,
              }
            : null,
        ]}
      />
      <ReviewWarnings warnings={review.warnings} />
      {review.limits ? <LimitCheckTable check={review.limits} /> : null}
    </section>
  );
}
