// Review and result of contract write and sign-only requests, inside the generic approval request page.

import { ReviewWarnings } from '@/components/approvals/review-warnings';
import { ReviewFacts } from '@/components/operations/review-facts';
import { ReviewHeader } from '@/components/operations/review-header';
import { Badge } from '@/components/ui/badge';
import { CopyButton } from '@/components/ui/copy-button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import type { ContractResult, ContractReview } from '@/lib/approvals/contracts';

export function isContractReview(review: unknown): review is ContractReview {
  const kind = (review as { kind?: unknown } | null)?.kind;
  return kind === 'contractWrite' || kind === 'contractSign';
}

function isContractResult(result: unknown): result is ContractResult {
  return isContractReview(result) && 'success' in result && Array.isArray(result.success);
}

export function ContractReviewPanel({
  review,
  requiredApprovals,
}: {
  review: ContractReview;
  requiredApprovals?: number;
}) {
  return (
    <section aria-labelledby="contract-review-heading" className="grid gap-4 rounded-lg border p-4">
      <ReviewHeader headingId="contract-review-heading" network={review.wallet.network}>
        <Badge variant="secondary">{review.kind === 'contractSign' ? 'Sign only' : 'Broadcast'}</Badge>
      </ReviewHeader>
      <ReviewFacts
        requiredApprovals={requiredApprovals}
        facts={[
          { label: 'Wallet', value: `${review.wallet.name} · ${review.wallet.blockchain}` },
          {
            label: 'From',
            value: `${review.source.name ? `${review.source.name} ` : ''}${review.source.address}`,
            className: 'font-mono text-xs break-all',
          },
          {
            label: 'Network fee (total)',
            value: (
              <>
                {review.fee.total === null ? '—' : `${review.fee.total} ${review.fee.symbol}`}
                {review.fee.error ? (
                  <span className="block text-xs text-destructive">{review.fee.error}</span>
                ) : null}
              </>
            ),
          },
        ]}
      />
      <ReviewWarnings warnings={review.warnings} />
      <Table aria-label="Contract calls">
        <TableHeader>
          <TableRow>
            <TableHead>#</TableHead>
            <TableHead>Contract</TableHead>
            <TableHead>Method</TableHead>
            <TableHead>Arguments</TableHead>
            <TableHead>Network fee</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {review.calls.map((call) => (
            <TableRow key={call.index}>
              <TableCell>{call.index + 1}</TableCell>
              <TableCell className="font-mono text-xs break-all">
                {call.token ? <span className="font-sans font-medium">{call.token} </span> : null}
                {call.contract}
              </TableCell>
              <TableCell className="font-mono text-xs">{call.method}</TableCell>
              <TableCell className="font-mono text-xs">
                <ul>
                  {call.args.map((a) => (
                    <li key={a.name} className="break-all">
                      {a.name} ({a.type}):{' '}
                      {a.amount ? (
                        <>
                          <span className="font-sans font-medium">{a.amount.units}</span> ({a.amount.base})
                        </>
                      ) : (
                        a.value
                      )}
                    </li>
                  ))}
                </ul>
                {call.warnings.map((w) => (
                  <span key={w} className="block font-sans text-amber-700 dark:text-amber-400">
                    {w}
                  </span>
                ))}
              </TableCell>
              <TableCell>
                {call.networkFee === null ? '—' : `${call.networkFee} ${review.fee.symbol}`}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}

/** The submission's result; each call's status is the item's current one (it settles after the answer). */
function ContractResultPanel({
  result,
  items = [],
}: {
  result: ContractResult;
  items?: Array<{ index: number; status: string | null }>;
}) {
  return (
    <section aria-labelledby="contract-result-heading" className="grid gap-3 rounded-lg border p-4">
      <h2 id="contract-result-heading" className="text-lg font-semibold">
        {result.kind === 'contractSign' ? 'Signed transactions' : 'Result'}
      </h2>
      {result.message ? <p className="text-sm text-muted-foreground">{result.message}</p> : null}
      <ul className="grid gap-3" aria-label="Successful calls">
        {result.success.map((s) => (
          <li key={s.index} className="grid gap-1 rounded-md border p-3 text-sm">
            <span className="font-medium">
              Call {s.index + 1}: {s.method} {(() => {
                const status = items.find((i) => i.index === s.index)?.status ?? s.status;
                return status ? `· ${status}` : '';
              })()}
            </span>
            {s.decoded ? (
              <dl className="grid gap-x-4 gap-y-1 font-mono text-xs sm:grid-cols-2">
                <div>
                  <dt className="font-sans text-muted-foreground">To</dt>
                  <dd className="break-all">{s.decoded.to ?? '—'}</dd>
                </div>
                <div>
                  <dt className="font-sans text-muted-foreground">Value</dt>
                  <dd>{s.decoded.value}</dd>
                </div>
                <div>
                  <dt className="font-sans text-muted-foreground">Method</dt>
                  <dd className="break-all">
                    {s.decoded.method
                      ? `${s.decoded.method}(${s.decoded.args.join(', ')})`
                      : (s.decoded.data ?? '—')}
                  </dd>
                </div>
                <div>
                  <dt className="font-sans text-muted-foreground">Nonce · gas · chain id</dt>
                  <dd>
                    {s.decoded.nonce ?? '—'} · {s.decoded.gas ?? '—'} · {s.decoded.chainId ?? '—'}
                  </dd>
                </div>
                {s.decoded.error ? <p className="text-destructive">{s.decoded.error}</p> : null}
              </dl>
            ) : null}
            {s.signedTransaction ? (
              <div className="flex items-center gap-2">
                <span className="truncate font-mono text-xs">{s.signedTransaction}</span>
                <CopyButton value={s.signedTransaction} label={`Copy signed transaction ${s.index + 1}`} />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {result.errors.length ? (
        <ul className="grid gap-1 text-sm text-destructive" aria-label="Failed calls">
          {result.errors.map((e) => (
            <li key={e.index}>
              Call {e.index + 1} failed: {e.message}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export function ContractPanels({
  review,
  result,
  items,
}: {
  review: ContractReview;
  result: unknown;
  items?: Array<{ index: number; status: string | null }>;
}) {
  return (
    <>
      <ContractReviewPanel review={review} />
      {isContractResult(result) ? <ContractResultPanel result={result} items={items} /> : null}
    </>
  );
}
