// Review and result of the operation types that are not withdrawals (swap, typed-data signature), for the
// generic request page: it hands over what it has and this picks the renderer by the review's kind.
import { TypedDataResultPanel } from '@/components/signing/typed-data-result';
import { TypedDataReviewPanel } from '@/components/signing/typed-data-review-panel';
import type { TypedDataResult, TypedDataReview } from '@/lib/approvals/signing';
import type { SwapResult, SwapReview } from '@/lib/approvals/swaps';
import { SwapResultPanel } from './swap-result';
import { SwapReviewPanel } from './swap-review-panel';

const OWN_KINDS = new Set(['swap', 'typedDataSign']);

export function isOwnKind(review: { kind: string } | null | undefined): boolean {
  return !!review && OWN_KINDS.has(review.kind);
}

export interface OperationPanelsProps {
  review: { kind: string };
  result: unknown;
  items: Array<{ status: string | null }>;
  requiredApprovals: number;
}

export function OperationPanels({ review, result, items, requiredApprovals }: OperationPanelsProps) {
  if (review.kind === 'swap')
    return (
      <>
        <SwapReviewPanel review={review as SwapReview} requiredApprovals={requiredApprovals} />
        {result ? <SwapResultPanel result={result as SwapResult} status={items[0]?.status ?? null} /> : null}
      </>
    );
  return (
    <>
      <TypedDataReviewPanel review={review as TypedDataReview} requiredApprovals={requiredApprovals} />
      {result ? <TypedDataResultPanel result={result as TypedDataResult} /> : null}
    </>
  );
}
