// The wallet's webhook endpoint at a glance: tries delivered over the last hour and day (each share computed
// from its counts, shown beside them), the last success, the failure streak and an hourly trend.
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { RelativeTime } from '@/components/ui/relative-time';
import type { EndpointHealth, EndpointWindow } from '@/lib/validation/webhooks';

/** Failed tries in a row from which the page says the endpoint is failing. */
const FAILING_STREAK = 5;

function share({ delivered, failed }: EndpointWindow): string {
  const total = delivered + failed;
  if (total === 0) return 'No tries';
  const percent = Math.floor((delivered / total) * 1000) / 10;
  return `${percent}% delivered (${delivered} of ${total} ${total === 1 ? 'try' : 'tries'})`;
}

export function EndpointHealthPanel({ health }: { health: EndpointHealth }) {
  const busiest = Math.max(1, ...health.hourly.map((h) => h.delivered + h.failed));
  const failing = health.failureStreak >= FAILING_STREAK;
  return (
    <section aria-labelledby="endpoint-health-heading" className="grid gap-3 rounded-lg border p-4">
      <h3 id="endpoint-health-heading" className="font-semibold">
        Endpoint health
      </h3>
      {failing ? (
        <Alert variant="destructive">
          <AlertTitle>The endpoint is failing</AlertTitle>
          <AlertDescription>
            The last {health.failureStreak} tries failed. Check that the endpoint is up and answers with a
            2xx, then resend the failed deliveries below.
          </AlertDescription>
        </Alert>
      ) : null}
      <dl className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <dt className="text-muted-foreground">Last hour</dt>
          <dd data-testid="health-last-hour">{share(health.lastHour)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Last 24 hours</dt>
          <dd data-testid="health-last-day">{share(health.lastDay)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Last success</dt>
          <dd>{health.lastSuccessAt ? <RelativeTime iso={health.lastSuccessAt} /> : 'None in the log'}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Failure streak</dt>
          <dd data-testid="health-streak">
            {health.failureStreak === 0
              ? 'None: the latest try was delivered'
              : `${health.failureStreak} failed ${health.failureStreak === 1 ? 'try' : 'tries'} in a row`}
          </dd>
        </div>
      </dl>
      <div
        role="img"
        aria-label={`Tries per hour over the last 24 hours: ${health.lastDay.delivered} delivered, ${health.lastDay.failed} failed.`}
        className="flex h-12 items-end gap-px"
      >
        {health.hourly.map((hour, i) => {
          const total = hour.delivered + hour.failed;
          return (
            <div
              // The buckets are fixed hours, oldest first: a bucket is its position.
              key={i}
              className="flex flex-1 flex-col-reverse overflow-hidden rounded-sm bg-muted"
              style={{ height: `${Math.max(4, (total / busiest) * 100)}%` }}
              title={`${24 - i} h ago: ${hour.delivered} delivered, ${hour.failed} failed`}
            >
              <div
                className="bg-success"
                style={{ height: total ? `${(hour.delivered / total) * 100}%` : 0 }}
              />
              <div
                className="bg-destructive"
                style={{ height: total ? `${(hour.failed / total) * 100}%` : 0 }}
              />
            </div>
          );
        })}
      </div>
      <div aria-hidden className="-mt-2 flex justify-between text-xs text-muted-foreground">
        <span>24 h ago</span>
        <span>now</span>
      </div>
    </section>
  );
}
