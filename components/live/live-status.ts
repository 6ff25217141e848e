'use client';
// The live connection's state, readable anywhere without a provider (the stream is mounted once in the
// shell header): queries use it to poll only while the stream is down.
import { useSyncExternalStore } from 'react';

/** `signed-out`: the session ended; the stream stays closed until the person signs in again. */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'signed-out';

let status: LiveStatus = 'connecting';
const subscribers = new Set<() => void>();

export function setLiveStatus(next: LiveStatus): void {
  if (next === status) return;
  status = next;
  for (const notify of subscribers) notify();
}

function subscribe(notify: () => void) {
  subscribers.add(notify);
  return () => {
    subscribers.delete(notify);
  };
}

export function useLiveStatus(): { status: LiveStatus; live: boolean } {
  const current = useSyncExternalStore(
    subscribe,
    () => status,
    () => 'connecting' as const,
  );
  return { status: current, live: current === 'live' };
}

/**
 * `refetchInterval` for a query that live events keep fresh: no polling while the stream is up, polling
 * every `ms` while it is down (the fallback the live updates promise).
 */
export function useLiveRefetchInterval(ms = 10_000): number | false {
  const { status } = useLiveStatus();
  // Signed out, every poll would be refused: nothing to poll for.
  return status === 'live' || status === 'signed-out' ? false : ms;
}
