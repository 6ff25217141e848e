// Sign-only withdrawals (#14): each signed transaction decoded for people, with copy, and the per-item errors.

import { CopyButton } from '@/components/ui/copy-button';
import type { SignOnlyResult, WithdrawalReview } from '@/lib/approvals/withdrawals';
import { formatAmount } from '@/lib/format';

export function SignedTransactions({ result, review }: { result: SignOnlyResult; review: WithdrawalReview }) {
  return (
    <section aria-labelledby="signed-heading" className="grid gap-3">
      <h2 id="signed-heading" className="text-lg font-semibold">
        Signed transactions
      </h2>
      <p className="text-sm text-muted-foreground">
        Nothing was broadcast. Anyone holding these bytes can broadcast them.
      </p>
      {result.signed.map((s) => {
        const item = review.items[s.index];
        const d = s.decoded;
        return (
          <article
            key={s.transactionId}
            aria-label={`Signed transaction ${s.index + 1}`}
            className="grid gap-2 rounded-lg border p-3 text-sm"
          >
            <h3 className="font-medium">Item {s.index + 1}</h3>
            <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-3">
              <div>
                <dt className="text-muted-foreground">Recipient</dt>
                <dd className="font-mono text-xs break-all">{d.tokenTransfer?.recipient ?? d.to ?? '—'}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">{d.tokenTransfer ? 'Token transfer' : 'Amount'}</dt>
                <dd>
                  {d.tokenTransfer
                    ? `${formatAmount(d.tokenTransfer.amount)} ${item?.symbol ?? ''} (token ${d.tokenTransfer.token})`
                    : `${formatAmount(d.value)} ${review.fee.symbol}`}
                </dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Chain id</dt>
                <dd>{d.chainId ?? '—'}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Nonce</dt>
                <dd>{d.nonce ?? '—'}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Gas limit</dt>
                <dd>{d.gas ?? '—'}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Max fee per gas</dt>
                <dd>{d.maxFeePerGas ?? d.gasPrice ?? '—'}</dd>
              </div>
              <div className="sm:col-span-3">
                <dt className="text-muted-foreground">Hash</dt>
                <dd className="font-mono text-xs break-all">{s.hash}</dd>
              </div>
            </dl>
            {d.error ? <p className="text-destructive">Could not decode: {d.error}</p> : null}
            <div className="flex items-start gap-1">
              <code className="max-h-24 flex-1 overflow-auto rounded bg-muted p-2 font-mono text-xs break-all">
                {s.signedTransaction}
              </code>
              <CopyButton value={s.signedTransaction} label={`Copy signed transaction ${s.index + 1}`} />
            </div>
          </article>
        );
      })}
      {result.errors.length > 0 ? (
        <ul aria-label="Signing errors" className="grid gap-1 text-sm text-destructive">
          {result.errors.map((e) => (
            <li key={e.index}>
              Item {e.index + 1}: {e.message}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
