'use client';
// Relative times ("3 min ago") differ between the server's render and the browser's: render the absolute
// time until the page has hydrated, then the relative one, kept current.
import { useSyncExternalStore } from 'react';
import { formatDateTime, formatRelative } from '@/lib/format';
import { browserClock } from '@/lib/format/clock';

/** The current time in the browser (refreshed every 30 s); null on the server and while hydrating. */
export function useNow(): number | null {
  return useSyncExternalStore(browserClock.subscribe, browserClock.getSnapshot, () => null);
}

export function RelativeTime({ iso, prefix = '' }: { iso: string; prefix?: string }) {
  const current = useNow();
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {prefix}
      {current === null ? formatDateTime(iso) : formatRelative(iso, current)}
    </time>
  );
}
