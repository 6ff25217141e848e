'use client';
import { ThemeProvider } from 'next-themes';

/** What every page needs, sign-in included: the colour theme. The console's own providers sit in its layout. */
export function Providers({ children, nonce }: { children: React.ReactNode; nonce?: string }) {
  return (
    <ThemeProvider
      attribute="class"
      defaultTheme="system"
      enableSystem
      disableTransitionOnChange
      nonce={nonce}
    >
      {children}
    </ThemeProvider>
  );
}
