'use client';
import { Button } from '@/components/ui/button';

export default function ErrorPage({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <main className="flex min-h-[50vh] flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="max-w-md text-muted-foreground">
        The console could not finish this request. Nothing was sent twice; try again.
        {error.digest ? (
          <>
            {' '}
            Reference: <code className="font-mono">{error.digest}</code>
          </>
        ) : null}
      </p>
      <Button onClick={reset}>Try again</Button>
    </main>
  );
}
