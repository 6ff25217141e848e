import { ReviewWarnings } from '@/components/approvals/review-warnings';
import { ReviewFacts } from '@/components/operations/review-facts';
import { ReviewHeader } from '@/components/operations/review-header';
import { Badge } from '@/components/ui/badge';
import type { TypedDataReview } from '@/lib/approvals/signing';
import { formatAmount, formatDateTime, formatUsd } from '@/lib/format';

export interface TypedDataReviewPanelProps {
  review: TypedDataReview;
  requiredApprovals?: number;
}

const KIND_LABELS = {
  permit: 'EIP-2612 Permit',
  transferWithAuthorization: 'EIP-3009 TransferWithAuthorization',
  other: 'Typed data',
} as const;

export function TypedDataReviewPanel({ review, requiredApprovals }: TypedDataReviewPanelProps) {
  const d = review.description;
  const isPermit = d.kind === 'permit';
  const token = d.token.symbol ? `${d.token.symbol} (${d.token.name})` : d.token.name;
  const mono = 'font-mono text-xs break-all';
  return (
    <section aria-labelledby="typed-data-review-heading" className="grid gap-4 rounded-lg border p-4">
      <ReviewHeader headingId="typed-data-review-heading">
        <Badge variant="secondary">{KIND_LABELS[d.kind]}</Badge>
        <Badge variant="outline">Signature only: nothing is broadcast</Badge>
      </ReviewHeader>
      <ReviewFacts
        requiredApprovals={requiredApprovals}
        facts={[
          {
            label: 'Signing address',
            value: `${review.signer.name ? `${review.signer.name} ` : ''}${review.signer.address}`,
            className: mono,
          },
          {
            label: 'Token',
            value: (
              <>
                {token} <span className="block font-mono text-xs break-all">{d.token.address}</span>
              </>
            ),
          },
          { label: 'Chain id', value: d.chainId },
          ...(d.kind !== 'other'
            ? [
                { label: isPermit ? 'Owner' : 'From', value: d.owner, className: mono },
                { label: isPermit ? 'Spender' : 'To', value: d.spender, className: mono },
                {
                  label: 'Value',
                  value: d.value?.unlimited
                    ? 'Unlimited'
                    : d.value?.units !== null && d.value?.units !== undefined
                      ? `${formatAmount(d.value.units, d.token.decimals ?? 18)} ${d.token.symbol ?? ''}`
                      : `${d.value?.raw ?? '—'} base units`,
                },
                {
                  label: 'USD value',
                  value: review.valueUsd ? formatUsd(review.valueUsd) : 'Unknown',
                },
                !isPermit && {
                  label: 'Valid after',
                  value: d.validAfter ? formatDateTime(d.validAfter) : '—',
                },
                {
                  label: isPermit ? 'Deadline' : 'Valid before',
                  value: d.deadline ? formatDateTime(d.deadline) : 'never',
                },
                { label: 'Nonce', value: d.nonce, className: mono },
              ]
            : [{ label: 'Primary type', value: d.primaryType }]),
          { label: 'EIP-712 hash', value: review.hash, className: mono, wide: true },
        ]}
      />
      <ReviewWarnings warnings={review.warnings} />
      <details className="text-sm">
        <summary className="cursor-pointer">Typed data as signed (JSON)</summary>
        <pre className="mt-2 overflow-x-auto rounded-md bg-muted p-3 font-mono text-xs">
          {JSON.stringify(review.document, null, 2)}
        </pre>
      </details>
    </section>
  );
}
