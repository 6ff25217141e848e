// Review and result of the operation types that are not withdrawals (swap, typed-data signature), for the
// generic request page: the review comes from the panel map, the result by the review's kind.
import { OperationReviewPanel } from '@/components/operations/review-panels';
import { TypedDataResultPanel } from '@/components/signing/typed-data-result';
import type { OperationReview } from '@/lib/approvals/kinds';
import type { TypedDataResult } from '@/lib/approvals/signing';
import type { SwapResult } from '@/lib/approvals/swaps';
import { SwapResultPanel } from './swap-result';

const _OWN_KINDS = new Set(['swap', 'typedDataSign']);

export interface OperationPanelsProps {
  review: { kind: string };
  result: unknown;
  items: Array<{ status: string | null }>;
  requiredApprovals: number;
}

export function OperationPanels({ review, result, items, requiredApprovals }: OperationPanelsProps) {
  return (
    <>
      <OperationReviewPanel review={review as OperationReview} requiredApprovals={requiredApprovals} />
      {result ? (
        review.kind === 'swap' ? (
          <SwapResultPanel result={result as SwapResult} status={items[0]?.status ?? null} />
        ) : (
          <TypedDataResultPanel result={result as TypedDataResult} />
        )
      ) : null}
    </>
  );
}
