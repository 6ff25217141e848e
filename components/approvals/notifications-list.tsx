'use client';
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { Button } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { RelativeTime } from '@/components/ui/relative-time';
import { markNotificationsReadAction } from '@/lib/actions/approvals';

export interface NotificationDto {
  id: string;
  requestId: string | null;
  message: string;
  read: boolean;
  createdAt: string;
}

/** What happened to the requests this person made: submitted, succeeded, failed, rejected, expired. */
export function NotificationsList({ initial }: { initial: NotificationDto[] }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const unread = initial.filter((n) => !n.read).length;
  return (
    <section aria-labelledby="notifications-heading" className="grid gap-2">
      <div className="flex items-center justify-between">
        <h2 id="notifications-heading" className="text-lg font-semibold">
          Your notifications{' '}
          {unread > 0 ? (
            <span className="text-sm font-normal text-muted-foreground">({unread} unread)</span>
          ) : null}
        </h2>
        {unread > 0 ? (
          <Button
            variant="outline"
            size="sm"
            disabled={pending}
            onClick={() =>
              startTransition(async () => {
                await markNotificationsReadAction(undefined);
                router.refresh();
              })
            }
          >
            Mark all read
          </Button>
        ) : null}
      </div>
      {initial.length === 0 ? (
        <p className="text-sm text-muted-foreground">No notifications.</p>
      ) : (
        <ul className="grid gap-1 text-sm">
          {initial.map((n) => (
            <li key={n.id} className={n.read ? 'text-muted-foreground' : 'font-medium'}>
              {n.requestId ? (
                <Link className="underline-offset-4 hover:underline" href={`/approvals/${n.requestId}`}>
                  {n.message}
                </Link>
              ) : (
                n.message
              )}{' '}
              <span className="text-xs font-normal text-muted-foreground">
                <RelativeTime iso={n.createdAt} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
