import { LimitCheckTable } from '@/components/approvals/limit-check';
import { ReviewWarnings } from '@/components/approvals/review-warnings';
import { ReviewFacts } from '@/components/operations/review-facts';
import { ReviewHeader } from '@/components/operations/review-header';
import { Badge } from '@/components/ui/badge';
import { CopyButton } from '@/components/ui/copy-button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ADDRESS_BOOK_SOURCE_LABELS, describeDuration } from '@/lib/approvals/address-book';
import {
  networkFeePayerText,
  type ReviewItem,
  reviewItemReference,
  type WithdrawalReview,
} from '@/lib/approvals/withdrawals';
import { explorerUrl, formatAmount, formatDateTime, formatUsd } from '@/lib/format';

function arrival(seconds: number | null) {
  if (seconds === null) return '—';
  return seconds < 120 ? `about ${seconds} s` : `about ${Math.round(seconds / 60)} min`;
}

/** The recipient's address book entry, and how long it had existed when the review was built. */
function BookLabel({ item, builtAt }: { item: ReviewItem; builtAt: string }) {
  if (item.book === undefined) return null;
  if (item.book === null)
    return <span className="block text-xs font-medium text-destructive">Not in the address book</span>;
  const { name, source, since } = item.book;
  const age = since ? describeDuration(new Date(builtAt).getTime() - new Date(since).getTime()) : null;
  return (
    <span className="block">
      <span className="block text-sm font-medium">{name}</span>
      <span className="block text-xs text-muted-foreground">
        {ADDRESS_BOOK_SOURCE_LABELS[source]}
        {since ? ` · added ${formatDateTime(since)}, ${age} before this review` : ''}
      </span>
    </span>
  );
}

export function ReviewPanel({
  review,
  requiredApprovals,
}: {
  review: WithdrawalReview;
  requiredApprovals?: number;
}) {
  const feePayer = networkFeePayerText(review);
  const sourceUrl = explorerUrl(review.wallet.slug, review.wallet.network, 'address', review.source.address);
  return (
    <section aria-labelledby="review-heading" className="grid gap-4 rounded-lg border p-4">
      <ReviewHeader headingId="review-heading" network={review.wallet.network}>
        {review.kind === 'withdrawSign' ? <Badge variant="secondary">Sign only</Badge> : null}
      </ReviewHeader>
      <ReviewFacts
        requiredApprovals={requiredApprovals}
        facts={[
          { label: 'Wallet', value: `${review.wallet.name} · ${review.wallet.blockchain}` },
          {
            label: 'From',
            className: 'flex flex-wrap items-center gap-x-1 font-mono text-xs break-all',
            value: (
              <>
                <span className="break-normal">
                  {review.source.kind === 'master'
                    ? 'Master wallet'
                    : (review.source.name ?? 'Child address')}
                </span>{' '}
                {sourceUrl ? (
                  <a className="underline" href={sourceUrl} target="_blank" rel="noreferrer">
                    {review.source.address}
                  </a>
                ) : (
                  review.source.address
                )}
              </>
            ),
          },
          {
            label: 'Total value',
            value: `${review.totals.byAsset.map((a) => `${formatAmount(a.amount)} ${a.symbol}`).join(' + ')} (${formatUsd(review.totals.usd)})`,
          },
          {
            label: 'Network fee estimate',
            value: `${review.fee.total === null ? 'unavailable' : `${formatAmount(review.fee.total)} ${review.fee.symbol}`} (${formatUsd(review.fee.totalUsd)})`,
          },
          feePayer !== null && { label: 'Network fee paid by', value: feePayer },
          {
            label: `${review.nativeBalance.symbol} balance now → after`,
            value: `${review.nativeBalance.before === null ? '—' : formatAmount(review.nativeBalance.before)} → ${review.nativeBalance.after === null ? '—' : formatAmount(review.nativeBalance.after)} ${review.nativeBalance.symbol}`,
          },
          {
            label: 'Estimated arrival',
            value: review.kind === 'withdrawSign' ? 'Not broadcast' : arrival(review.estimatedArrivalSeconds),
          },
        ]}
      />
      {review.fee.error ? <p className="text-sm text-destructive">Fee estimate: {review.fee.error}</p> : null}
      <ReviewWarnings warnings={review.warnings} />
      {review.limits ? <LimitCheckTable check={review.limits} /> : null}
      <Table aria-label="Recipients">
        <TableHeader>
          <TableRow>
            <TableHead>#</TableHead>
            <TableHead>Recipient</TableHead>
            <TableHead className="text-right">Amount</TableHead>
            <TableHead className="text-right">USD</TableHead>
            <TableHead className="text-right">Network fee</TableHead>
            <TableHead>Reference</TableHead>
            <TableHead>Warnings</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {review.items.map((item) => (
            <TableRow key={item.index}>
              <TableCell>{item.index + 1}</TableCell>
              <TableCell>
                <BookLabel item={item} builtAt={review.builtAt} />
                <span className="flex items-center gap-1">
                  <span className="min-w-48 font-mono text-xs break-all">{item.address}</span>
                  <CopyButton value={item.address} label={`Copy recipient ${item.index + 1} address`} />
                </span>
                {item.note ? (
                  <span className="block text-xs text-muted-foreground">Note: {item.note}</span>
                ) : null}
                {item.metadata ? (
                  <span className="block font-mono text-xs text-muted-foreground">
                    {JSON.stringify(item.metadata)}
                  </span>
                ) : null}
              </TableCell>
              <TableCell className="text-right whitespace-nowrap">
                {formatAmount(item.amount)} {item.symbol}
              </TableCell>
              <TableCell className="text-right">{formatUsd(item.usd)}</TableCell>
              <TableCell className="text-right whitespace-nowrap">
                {item.networkFee === null ? '—' : `${formatAmount(item.networkFee)} ${review.fee.symbol}`}
              </TableCell>
              <TableCell className="font-mono text-xs">
                <span
                  className={item.clientReference || item.reference ? undefined : 'text-muted-foreground'}
                >
                  {reviewItemReference(item)}
                </span>
              </TableCell>
              <TableCell>
                <ul className="flex min-w-64 flex-wrap gap-1">
                  {item.aml ? (
                    <li>
                      <Badge
                        variant={
                          ['success', 'passed'].includes(item.aml.status.toLowerCase())
                            ? 'success'
                            : 'warning'
                        }
                      >
                        AML {item.aml.status}
                      </Badge>
                    </li>
                  ) : null}
                  {item.warnings.map((w) => (
                    <li key={w}>
                      <Badge variant="warning">{w}</Badge>
                    </li>
                  ))}
                </ul>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}
