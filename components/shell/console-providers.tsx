'use client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { NuqsAdapter } from 'nuqs/adapters/next/app';
import { useState } from 'react';
import { ToasterHost } from '@/components/ui/toaster';

/**
 * Data, URL state and toasts for the signed-in console. Kept out of the root layout so that sign-in, the password
 * change and the not-found page load none of it.
 */
export function ConsoleProviders({ children }: { children: React.ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 15_000, refetchOnWindowFocus: true } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <NuqsAdapter>{children}</NuqsAdapter>
      <ToasterHost />
    </QueryClientProvider>
  );
}
