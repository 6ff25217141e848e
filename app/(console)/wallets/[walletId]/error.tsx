'use client';
// A wallet section that failed while rendering: the wallet's header and tabs stay, so the other sections
// remain one click away. Expected upstream failures are rendered by the pages themselves.
import { ServiceError } from '@/components/wallets/service-error';

export default function WalletSectionError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <ServiceError
      title="This section of the wallet could not be loaded"
      message={`Something went wrong while loading it${error.digest ? ` (reference ${error.digest})` : ''}. Nothing was changed; try again.`}
      onRetry={reset}
    />
  );
}
