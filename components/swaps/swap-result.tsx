// The swap's outcome as the custody service answered it: rate, amount received and asset.
import { Badge } from '@/components/ui/badge';
import { quoteDifferenceWords, type SwapResult } from '@/lib/approvals/swaps';
import { formatAmount, formatSignificant } from '@/lib/format';

export interface SwapResultPanelProps {
  result: SwapResult;
  /** The swap transaction's status (PENDING until it settles). */
  status: string | null;
}

export function SwapResultPanel({ result, status }: SwapResultPanelProps) {
  const settled = status === 'SUCCESS';
  return (
    <section aria-labelledby="swap-result-heading" className="grid gap-3 rounded-lg border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="swap-result-heading" className="text-lg font-semibold">
          Swap result
        </h2>
        <Badge variant={settled ? 'success' : status === 'FAILED' ? 'destructive' : 'secondary'}>
          {settled ? 'Settled' : status === 'FAILED' ? 'Failed' : 'Settling'}
        </Badge>
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-muted-foreground">Rate</dt>
          <dd title={result.rate ?? undefined}>{formatSignificant(result.rate)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">To amount</dt>
          <dd>
            {result.toAmount === null ? '—' : formatAmount(result.toAmount)} {result.toAsset?.symbol ?? ''}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">To asset</dt>
          <dd>
            {result.toAsset
              ? `${result.toAsset.symbol}${result.toAsset.name ? ` (${result.toAsset.name})` : ''}`
              : '—'}
          </dd>
        </div>
      </dl>
      {result.requote ? (
        <p className="text-sm">
          The approved quote had expired, so the service was asked again before sending: it gave{' '}
          {formatAmount(result.requote.after.toAmount)} {result.toAsset?.symbol ?? ''} instead of{' '}
          {formatAmount(result.requote.before.toAmount)} (
          {quoteDifferenceWords(result.requote.difference, (amount) => formatAmount(amount))}), at least the
          approved minimum of {formatAmount(result.requote.before.minAmount)}.
        </p>
      ) : null}
    </section>
  );
}
