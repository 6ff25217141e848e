'use client';
// An approver compares the service's quote now with the one the request shows, before approving.
import { RefreshCwIcon } from 'lucide-react';
import { useState, useTransition } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { checkSwapQuoteAction } from '@/lib/actions/swaps';
import { quoteDifferenceWords, type SwapQuoteComparison, type SwapReview } from '@/lib/approvals/swaps';
import { formatAssetAmount, formatDateTime } from '@/lib/format';

export function SwapQuoteCheck({ requestId, review }: { requestId: string; review: SwapReview }) {
  const [pending, startTransition] = useTransition();
  const [checked, setChecked] = useState<SwapQuoteComparison | null>(null);
  const [error, setError] = useState<string | null>(null);
  const to = (amount: string) => formatAssetAmount(amount, review.to.decimals, review.to.symbol);
  const quote = review.quote;

  const check = () =>
    startTransition(async () => {
      setError(null);
      const result = await checkSwapQuoteAction({ requestId });
      if (!result.ok) {
        setError(result.error);
        return;
      }
      setChecked(result.data);
    });

  return (
    <section aria-labelledby="quote-check-heading" className="grid gap-3 rounded-lg border p-4">
      <h2 id="quote-check-heading" className="text-lg font-semibold">
        Quote before approving
      </h2>
      <p className="text-sm text-muted-foreground">
        {quote
          ? `The quote below holds until ${formatDateTime(quote.expiresAt)}. If it has expired when the last approval lands, the service is asked again and the swap is sent only if it still gives at least ${to(quote.minAmount)}.`
          : 'This request has no quote from the service to hold it to.'}
      </p>
      <Button variant="outline" className="justify-self-start" disabled={pending} onClick={check}>
        <RefreshCwIcon aria-hidden />
        {pending ? 'Asking the service…' : 'Check the current quote'}
      </Button>
      {error ? (
        <Alert variant="destructive">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
      {checked ? (
        <p role="status" className="text-sm">
          The service now gives {to(checked.after.toAmount)}
          {checked.before && checked.difference !== null
            ? ` (${quoteDifferenceWords(checked.difference, to)} against the quote below). ${
                checked.holds
                  ? `That keeps the approved minimum of ${to(checked.before.minAmount)}.`
                  : `That is below the approved minimum of ${to(checked.before.minAmount)}: if the quote has expired by the last approval, nothing is sent.`
              }`
            : '.'}
        </p>
      ) : null}
    </section>
  );
}
