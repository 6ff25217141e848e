'use client';
// Last resort for a console page that failed while rendering: the sidebar and header stay, the page's
// place shows what happened. Expected upstream failures never get here (loaders return them as values);
// what does is unexpected, so only a generic sentence and the server's reference are shown.
import { ServiceError } from '@/components/wallets/service-error';

function failureMessage(error: Error & { digest?: string }): string {
  return `Something went wrong while loading this page${error.digest ? ` (reference ${error.digest})` : ''}. Nothing was changed; try again.`;
}

export default function ConsoleError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <ServiceError title="This page could not be loaded" message={failureMessage(error)} onRetry={reset} />
  );
}
