import { LimitCheckTable } from '@/components/approvals/limit-check';
import { ReviewWarnings } from '@/components/approvals/review-warnings';
import { ReviewFacts } from '@/components/operations/review-facts';
import { ReviewHeader } from '@/components/operations/review-header';
import type { SwapReview } from '@/lib/approvals/swaps';
import { formatAmount, formatAssetAmount, formatDateTime, formatSignificant, formatUsd } from '@/lib/format';

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
          ...quoteFacts(review),
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

/** The service's quote, labelled as the service's; or why there is none. */
function quoteFacts(review: SwapReview) {
  const quote = review.quote;
  const to = (amount: string) => formatAssetAmount(amount, review.to.decimals, review.to.symbol);
  if (!quote) return [{ label: 'Service quote', value: review.quoteNote ?? 'None', wide: true }];
  return [
    {
      label: 'Service quote',
      value: `1 ${review.from.symbol} = ${formatSignificant(quote.rate)} ${review.to.symbol}: ${to(quote.toAmount)}, at least ${to(quote.minAmount)} (slippage ${quote.slippage} %)`,
      wide: true,
    },
    {
      label: 'Network fee (quoted)',
      value: `${formatAmount(quote.networkFee)}${review.feeSymbol ? ` ${review.feeSymbol}` : ''}${quote.networkFeeUsd ? ` (${formatUsd(Number(quote.networkFeeUsd))})` : ''}`,
    },
    {
      label: 'Quote valid until',
      value: `${formatDateTime(quote.expiresAt)}; if it has expired when the last approval lands, the service is asked again and the swap is sent only if it still gives at least ${to(quote.minAmount)}.`,
      wide: true,
    },
  ];
}
