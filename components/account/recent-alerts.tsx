// A person's recent alerts with their delivery status per channel.
import { Badge } from '@/components/ui/badge';
import { RelativeTime } from '@/components/ui/relative-time';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ALERT_EVENT_LABELS, type RecentAlert } from '@/lib/validation/alerts';

export interface RecentAlertsProps {
  alerts: RecentAlert[];
}

const STATUS: Record<
  RecentAlert['status'],
  { label: string; variant: 'success' | 'warning' | 'destructive' }
> = {
  sent: { label: 'Delivered', variant: 'success' },
  pending: { label: 'Retrying', variant: 'warning' },
  failed: { label: 'Failed', variant: 'destructive' },
};

function Status({ alert }: { alert: RecentAlert }) {
  const status =
    alert.status === 'pending' && alert.attempts === 0
      ? { label: 'Queued', variant: 'warning' as const }
      : STATUS[alert.status];
  return (
    <span className="grid gap-1">
      <Badge variant={status.variant} className="justify-self-start">
        {status.label}
      </Badge>
      <span className="text-xs text-muted-foreground">
        {alert.attempts} {alert.attempts === 1 ? 'try' : 'tries'}
        {alert.lastError ? `: ${alert.lastError}` : ''}
      </span>
    </span>
  );
}

export function RecentAlerts({ alerts }: RecentAlertsProps) {
  if (alerts.length === 0) return <p className="text-muted-foreground">No alerts yet.</p>;
  return (
    <Table aria-label="Recent alerts">
      <TableHeader>
        <TableRow>
          <TableHead>Alert</TableHead>
          <TableHead className="hidden sm:table-cell">Channel</TableHead>
          <TableHead>Delivery</TableHead>
          <TableHead className="hidden sm:table-cell">Raised</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {alerts.map((a) => (
          <TableRow key={a.id}>
            <TableCell className="max-w-[14rem] whitespace-normal break-words sm:max-w-md">
              <a className="font-medium underline" href={a.link}>
                {a.subject}
              </a>
              <span className="block text-xs text-muted-foreground">
                {a.event === 'test' ? 'Test' : ALERT_EVENT_LABELS[a.event].label}
                <span className="sm:hidden"> · {a.channel === 'email' ? 'Email' : 'Chat'}</span>
              </span>
            </TableCell>
            <TableCell className="hidden sm:table-cell">{a.channel === 'email' ? 'Email' : 'Chat'}</TableCell>
            <TableCell className="whitespace-normal">
              <Status alert={a} />
            </TableCell>
            <TableCell className="hidden sm:table-cell">
              <RelativeTime iso={a.createdAt} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
