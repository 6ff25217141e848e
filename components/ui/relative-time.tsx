'use client';
// Relative times ("3 min ago") differ between the server's render and the browser's: render the absolute
// time until the page has hydrated, then the relative one, kept current.
import { useSyncExternalStore } from 'react';
import { formatDateTime, formatRelative } from '@/lib/format';

const TICK_MS = 30_000;
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  now = Date.now();
  if (!timer)
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The current time in the browser (refreshed every 30 s); null on the server and while hydrating. */
export function useNow(): number | null {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => null,
  );
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
