import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { Providers } from '@/components/shell/providers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Custody Console', template: '%s · Custody Console' },
  description: 'Operators’ console for a wallet custody service',
  // Files in public/: the SVG for browsers that take one, the .ico for the rest and for /favicon.ico.
  icons: {
    icon: [
      { url: '/icon.svg', type: 'image/svg+xml' },
      { url: '/favicon.ico', sizes: '16x16 32x32 48x48' },
    ],
  },
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
