// Every try of one delivery, grouped by the log entry (first send, then each resend) that made it.
import { formatDateTime } from '@/lib/format';
import type { WebhookDeliveryGroup } from '@/lib/validation/webhooks';
import { DeliveryStatusBadge, describeOutcome, describeResponse } from './delivery-status';

export interface AttemptHistoryProps {
  group: WebhookDeliveryGroup;
  /** Heading level text; the list is labelled by it. */
  title?: string;
  headingId: string;
}

export function AttemptHistory({ group, title = 'Attempt history', headingId }: AttemptHistoryProps) {
  return (
    <section aria-labelledby={headingId} className="grid gap-2">
      <h3 id={headingId} className="text-sm font-medium">
        {title}
      </h3>
      <ol className="grid gap-2 text-sm" aria-labelledby={headingId}>
        {group.entries.map((entry, index) => {
          const tries = group.attempts.filter((a) => a.entry === index + 1);
          return (
            <li key={entry.id} className="grid gap-1 rounded-md border p-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium">
                  {index === 0 ? 'First send' : `Resend ${index}`}, logged {formatDateTime(entry.createdAt)}
                </span>
                <DeliveryStatusBadge status={entry.status} />
              </div>
              <ol className="grid gap-0.5 pl-4 text-muted-foreground">
                {tries.map((attempt) => (
                  <li key={attempt.number}>
                    <span className="text-foreground">Attempt {attempt.number}</span>:{' '}
                    {describeOutcome(attempt.outcome)}
                    {attempt.at ? <> at {formatDateTime(attempt.at)}</> : null}
                    {attempt.response !== null ? (
                      <>
                        {' '}
                        ·{' '}
                        <span className="break-words text-foreground">
                          {describeResponse(attempt.response)}
                        </span>
                      </>
                    ) : null}
                  </li>
                ))}
              </ol>
            </li>
          );
        })}
      </ol>
      <p className="text-xs text-muted-foreground">
        The service logs each send&apos;s first and last time and its last answer; tries in between show their
        outcome only.
      </p>
    </section>
  );
}
