// The time relative dates are measured against in the browser: one store for every subscriber (React's
// useSyncExternalStore), moved on every 30 s.

const TICK_MS = 30_000;
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function tick() {
  now = Date.now();
  for (const listener of listeners) listener();
}

/**
 * The snapshot changes only in `tick`, which tells every listener. Changing it while subscribing, untold,
 * made React render the subscribers again, which remounted table cells that subscribe again: an endless
 * loop (React error #185) whenever the clock moved on between two subscriptions.
 */
export const browserClock = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    if (!timer) {
      timer = setInterval(tick, TICK_MS);
      // A page opened long after the last tick gets the time at once, told like any tick.
      if (Date.now() - now > 1_000) setTimeout(tick, 0);
    }
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    };
  },
  getSnapshot: (): number => now,
};
