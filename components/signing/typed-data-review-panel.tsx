import { ReviewWarnings } from '@/components/approvals/review-warnings';
import { Badge } from '@/components/ui/badge';
import type { TypedDataReview } from '@/lib/approvals/signing';
import { formatAmount, formatDateTime } from '@/lib/format';

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
  return (
    <section aria-labelledby="typed-data-review-heading" className="grid gap-4 rounded-lg border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="typed-data-review-heading" className="text-lg font-semibold">
          Review
        </h2>
        <div className="flex gap-2">
          <Badge variant="secondary">{KIND_LABELS[d.kind]}</Badge>
          <Badge variant="outline">Signature only: nothing is broadcast</Badge>
        </div>
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-muted-foreground">Signing address</dt>
          <dd className="font-mono text-xs break-all">
            {review.signer.name ? `${review.signer.name} ` : ''}
            {review.signer.address}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Token</dt>
          <dd>
            {token} <span className="block font-mono text-xs break-all">{d.token.address}</span>
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Chain id</dt>
          <dd>{d.chainId}</dd>
        </div>
        {d.kind !== 'other' ? (
          <>
            <div>
              <dt className="text-muted-foreground">{isPermit ? 'Owner' : 'From'}</dt>
              <dd className="font-mono text-xs break-all">{d.owner}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">{isPermit ? 'Spender' : 'To'}</dt>
              <dd className="font-mono text-xs break-all">{d.spender}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Value</dt>
              <dd>
                {d.value?.unlimited
                  ? 'Unlimited'
                  : d.value?.units !== null && d.value?.units !== undefined
                    ? `${formatAmount(d.value.units, d.token.decimals ?? 18)} ${d.token.symbol ?? ''}`
                    : `${d.value?.raw ?? '—'} base units`}
              </dd>
            </div>
            {!isPermit ? (
              <div>
                <dt className="text-muted-foreground">Valid after</dt>
                <dd>{d.validAfter ? formatDateTime(d.validAfter) : '—'}</dd>
              </div>
            ) : null}
            <div>
              <dt className="text-muted-foreground">{isPermit ? 'Deadline' : 'Valid before'}</dt>
              <dd>{d.deadline ? formatDateTime(d.deadline) : 'never'}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Nonce</dt>
              <dd className="font-mono text-xs break-all">{d.nonce}</dd>
            </div>
          </>
        ) : (
          <div>
            <dt className="text-muted-foreground">Primary type</dt>
            <dd>{d.primaryType}</dd>
          </div>
        )}
        {requiredApprovals !== undefined ? (
          <div>
            <dt className="text-muted-foreground">Approvals needed</dt>
            <dd>{requiredApprovals}</dd>
          </div>
        ) : null}
        <div className="sm:col-span-2">
          <dt className="text-muted-foreground">EIP-712 hash</dt>
          <dd className="font-mono text-xs break-all">{review.hash}</dd>
        </div>
      </dl>
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
