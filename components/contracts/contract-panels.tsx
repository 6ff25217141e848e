// Review and result of contract write and sign-only requests, inside the generic approval request page.

import type * as React from 'react';
import { LimitCheckTable } from '@/components/approvals/limit-check';
import { ReviewWarnings } from '@/components/approvals/review-warnings';
import { ReviewFacts } from '@/components/operations/review-facts';
import { ReviewHeader } from '@/components/operations/review-header';
import { Badge } from '@/components/ui/badge';
import { CopyButton } from '@/components/ui/copy-button';
import type {
  ContractDecodedCall,
  ContractResult,
  ContractReview,
  ContractReviewCall,
} from '@/lib/approvals/contracts';
import { formatUsd } from '@/lib/format';

function isContractReview(review: unknown): review is ContractReview {
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
          // Reviews made before calls were priced carry no total.
          review.totalUsd !== undefined && {
            label: 'Value (USD)',
            value:
              review.totalUsd === null
                ? 'Unknown: not every call could be priced'
                : formatUsd(review.totalUsd),
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
      {review.limits ? <LimitCheckTable check={review.limits} /> : null}
      {/* One card per call rather than a wide table: amount, recipient and warnings read on a phone. */}
      <ol aria-label="Contract calls" className="grid gap-3">
        {review.calls.map((call) => (
          <ContractCallCard key={call.index} call={call} feeSymbol={review.fee.symbol} />
        ))}
      </ol>
    </section>
  );
}

function Fact({ label, children, mono }: { label: string; children: React.ReactNode; mono?: boolean }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className={mono ? 'font-mono text-xs break-all' : 'wrap-anywhere'}>{children}</dd>
    </div>
  );
}

const FUNCTION_WORDS: Record<ContractDecodedCall['function'], string> = {
  transfer: 'Token transfer',
  transferFrom: 'Token transfer from another holder',
  approve: 'Token approval (allowance)',
  increaseAllowance: 'Allowance increase',
};

function ContractCallCard({ call, feeSymbol }: { call: ContractReviewCall; feeSymbol: string }) {
  const decoded = call.decoded ?? null;
  const title = decoded
    ? `${FUNCTION_WORDS[decoded.function]}${decoded.token ? ` · ${decoded.token}` : ''}`
    : call.method;
  return (
    <li className="grid gap-3 rounded-md border p-3 text-sm" aria-label={`Call ${call.index + 1}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h3 className="font-medium">
          Call {call.index + 1}: {title}
        </h3>
        {call.usd !== undefined ? (
          <span className="font-medium">{call.usd === null ? 'USD value unknown' : formatUsd(call.usd)}</span>
        ) : null}
      </div>
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-2">
        {decoded ? (
          <>
            <Fact label="Function" mono>
              {decoded.signature}
            </Fact>
            <Fact label="Token">{decoded.token ?? 'Unknown token'}</Fact>
            {decoded.from ? (
              <Fact label="From (token holder)" mono>
                {decoded.from}
              </Fact>
            ) : null}
            <Fact label={decoded.role === 'spender' ? 'Spender' : 'Recipient'} mono>
              {decoded.to}
            </Fact>
            <Fact label={decoded.role === 'spender' ? 'Allowance' : 'Amount'}>
              <span className="font-medium">{decoded.amount ?? decoded.base}</span>
              {decoded.amount ? (
                <span className="block text-xs text-muted-foreground">{decoded.base}</span>
              ) : null}
            </Fact>
            <Fact label="USD value">{decoded.usd === null ? 'Unknown' : formatUsd(decoded.usd)}</Fact>
          </>
        ) : call.undecodable ? (
          <Fact label="Decoded">Not decoded: {call.undecodable}</Fact>
        ) : null}
        {call.native ? (
          <Fact label="Native coin sent">
            {call.native.amount} {call.native.symbol} (
            {call.native.usd === null ? 'USD unknown' : formatUsd(call.native.usd)})
          </Fact>
        ) : null}
        <Fact label="Contract" mono>
          {call.token ? <span className="font-sans font-medium">{call.token} </span> : null}
          {call.contract}
        </Fact>
        <Fact label="Network fee">{call.networkFee === null ? '—' : `${call.networkFee} ${feeSymbol}`}</Fact>
        <div className="min-w-0 sm:col-span-2">
          <dt className="text-muted-foreground">Method and arguments as sent</dt>
          <dd className="font-mono text-xs">
            <span className="break-all">{call.method}</span>
            <ul>
              {call.args.map((a, i) => (
                // Arguments never move: the position is their identity.
                <li key={i} className="break-all">
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
          </dd>
        </div>
      </dl>
      {call.warnings.length ? (
        <ul aria-label={`Warnings of call ${call.index + 1}`} className="grid gap-1">
          {call.warnings.map((w) => (
            <li key={w} className="wrap-anywhere text-amber-700 dark:text-amber-400">
              {w}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
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
  requiredApprovals,
}: {
  review: ContractReview;
  result: unknown;
  items?: Array<{ index: number; status: string | null }>;
  requiredApprovals?: number;
}) {
  return (
    <>
      <ContractReviewPanel review={review} requiredApprovals={requiredApprovals} />
      {isContractResult(result) ? <ContractResultPanel result={result} items={items} /> : null}
    </>
  );
}
