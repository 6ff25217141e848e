'use client';
import { RefreshCwIcon } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

export interface ServiceErrorProps {
  title: string;
  /** What a person may read: the custody service's own message, or a generic sentence with a reference. */
  message: string;
  /** Runs with the refresh (an error boundary's reset); by default the server page is simply read again. */
  onRetry?: () => void;
}

/**
 * A read that failed, shown in place of the content it would have filled, inside the console shell, with
 * a way to ask again: the server page is rendered anew, so its loaders read the custody service again.
 */
export function ServiceError({ title, message, onRetry }: ServiceErrorProps) {
  const router = useRouter();
  const [retrying, startRetry] = useTransition();
  return (
    <Alert variant="destructive">
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>
        <p>{message}</p>
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="mt-2"
          disabled={retrying}
          onClick={() =>
            startRetry(() => {
              router.refresh();
              onRetry?.();
            })
          }
        >
          <RefreshCwIcon aria-hidden className={retrying ? 'animate-spin' : undefined} />
          {retrying ? 'Trying again…' : 'Try again'}
        </Button>
      </AlertDescription>
    </Alert>
  );
}

/** A list the custody service does not offer (an extension it lacks): said in place, not as a failure. */
export function NotOffered({ children }: { children: React.ReactNode }) {
  return (
    <p className="rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">
      {children}
    </p>
  );
}
