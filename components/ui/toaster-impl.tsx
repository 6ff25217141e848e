'use client';
import { useTheme } from 'next-themes';
import type { CSSProperties } from 'react';
import { Toaster as Sonner } from 'sonner';

// Sonner's light rich colors put text below 4.5:1 on their tinted backgrounds (axe color-contrast);
// darker text keeps toasts readable, and accessibility checks pass while a live toast is on screen.
const LIGHT_RICH_TEXT = {
  '--success-text': 'hsl(140, 100%, 22%)',
  '--error-text': 'hsl(360, 100%, 38%)',
  '--warning-text': 'hsl(31, 92%, 28%)',
  '--info-text': 'hsl(210, 92%, 35%)',
} as CSSProperties;

/** Sonner's toaster, loaded by `ToasterHost` (`toaster.tsx`) once the page is idle or a toast is shown. */
export default function Toaster() {
  const { resolvedTheme } = useTheme();
  return (
    <Sonner
      theme={resolvedTheme === 'dark' ? 'dark' : 'light'}
      richColors
      closeButton
      position="top-right"
      style={resolvedTheme === 'dark' ? undefined : LIGHT_RICH_TEXT}
    />
  );
}
