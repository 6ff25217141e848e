// After an admin asks for a configuration change: it waits for a second admin, on its request page.
import { ClockIcon } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Link } from '@/components/ui/link';
import type { RequestedChange } from '@/lib/actions/users';

export function RequestedChangeNotice({ change }: { change: RequestedChange }) {
  return (
    <Alert role="status">
      <ClockIcon aria-hidden />
      <AlertTitle>Waiting for a second admin</AlertTitle>
      <AlertDescription>
        <p>
          {change.summary}: another admin approves it before it takes effect.{' '}
          <Link className="underline" href={`/approvals/${change.id}`}>
            Open the request
          </Link>
        </p>
      </AlertDescription>
    </Alert>
  );
}
