import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { Providers } from '@/components/shell/providers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Custody Console', template: '%s · Custody Console' },
  description: 'Operators’ console for a wallet custody service',
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-screen">
        <Providers nonce={nonce}>{children}</Providers>
      </body>
    </html>
  );
}
