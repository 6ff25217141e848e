'use client';
// The signed-in person's open sessions, each with a way to end it.
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { RelativeTime } from '@/components/ui/relative-time';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/toast';
import { endSessionAction } from '@/lib/actions/sessions';

export interface SessionListItem {
  id: string;
  /** The browser and system in words ("Firefox on Windows"). */
  device: string;
  address: string | null;
  startedAt: string;
  lastSeenAt: string;
  /** The session this page was opened in. */
  current: boolean;
}

export interface SessionsTableProps {
  sessions: SessionListItem[];
}

export function SessionsTable({ sessions }: SessionsTableProps) {
  if (sessions.length === 0) return <p className="text-muted-foreground">No open sessions.</p>;
  return (
    <Table aria-label="Sessions">
      <TableHeader>
        <TableRow>
          <TableHead>Device</TableHead>
          <TableHead className="hidden sm:table-cell">Address</TableHead>
          <TableHead className="hidden sm:table-cell">Started</TableHead>
          <TableHead className="hidden sm:table-cell">Last seen</TableHead>
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {sessions.map((s) => (
          <TableRow key={s.id}>
            <TableCell className="font-medium">
              <span className="flex flex-wrap items-center gap-2">
                {s.device}
                {s.current ? <Badge variant="secondary">This session</Badge> : null}
              </span>
              {/* On a phone the other columns would push the button off screen: their values go here. */}
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-xs font-normal text-muted-foreground sm:hidden">
                <dt>Address</dt>
                <dd className="font-mono">{s.address ?? 'Unknown'}</dd>
                <dt>Started</dt>
                <dd>
                  <RelativeTime iso={s.startedAt} />
                </dd>
                <dt>Last seen</dt>
                <dd>
                  <RelativeTime iso={s.lastSeenAt} />
                </dd>
              </dl>
            </TableCell>
            <TableCell className="hidden font-mono text-xs sm:table-cell">{s.address ?? 'Unknown'}</TableCell>
            <TableCell className="hidden sm:table-cell">
              <RelativeTime iso={s.startedAt} />
            </TableCell>
            <TableCell className="hidden sm:table-cell">
              <RelativeTime iso={s.lastSeenAt} />
            </TableCell>
            <TableCell className="text-right">
              <EndSessionButton session={s} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function EndSessionButton({ session }: { session: SessionListItem }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const label = session.current ? 'End this session' : `End session on ${session.device}`;
  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm">
          {session.current ? 'End this session' : 'End session'}
          {session.current ? null : <span className="sr-only"> on {session.device}</span>}
        </Button>
      }
      title={label}
      description={
        session.current
          ? 'You will be signed out of this browser.'
          : `The browser signed in on ${session.device}${session.address ? ` from ${session.address}` : ''} is signed out at once.`
      }
      confirmLabel="End session"
      destructive
      error={error}
      onOpenChange={() => setError(null)}
      onConfirm={async () => {
        const result = await endSessionAction({ sessionId: session.id }).catch(() => ({
          ok: false as const,
          error: 'The console could not be reached. Try again.',
        }));
        if (!result.ok) {
          setError(result.error);
          return false;
        }
        if (result.data.current) {
          window.location.assign('/sign-in');
          return true;
        }
        toast.success('Session ended');
        router.refresh();
        return true;
      }}
    />
  );
}
