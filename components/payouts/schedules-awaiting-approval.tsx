// Schedules asked for and not yet approved: listed on the wallet's schedules page, each linking to its request,
// so the person who asked (and the one who may approve) finds it where schedules are.
import { Link } from '@/components/ui/link';
import type { ScheduleAwaitingApproval } from '@/lib/approvals/payout-schedules';
import { formatDateTime } from '@/lib/format';

export function SchedulesAwaitingApproval({ awaiting }: { awaiting: ScheduleAwaitingApproval[] }) {
  return (
    <section aria-labelledby="awaiting-schedules-heading" className="grid min-w-0 gap-2">
      <h2 id="awaiting-schedules-heading" className="text-lg font-semibold">
        Waiting for approval
      </h2>
      <ul className="grid gap-2">
        {awaiting.map((item) => (
          <li key={item.requestId} className="grid gap-0.5 rounded-lg border p-3 text-sm">
            <Link href={`/approvals/${item.requestId}`} className="font-medium underline underline-offset-2">
              {item.summary}
            </Link>
            <span className="text-muted-foreground">
              Asked by {item.requesterEmail} on {formatDateTime(item.createdAt)}; runs only once another
              person approves it, by {formatDateTime(item.expiresAt)}.
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
