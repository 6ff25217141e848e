// Exponential backoff, the one computation of every retry's wait: custody API calls (with full jitter), alert
// deliveries, the follow-up of submitted requests, and the reconnects of the live event stream (browser and
// server). Pure: the caller counts its retries and, for jitter, passes its random source.

export interface Backoff {
  /** The wait before the first retry. */
  baseMs: number;
  /** The longest wait. */
  capMs: number;
}

/**
 * The wait before retry `retry` (0 for the first): `baseMs` doubled per retry, at most `capMs`. With `random`
 * (values in [0, 1)), full jitter: a whole number of milliseconds from 0 up to that wait.
 */
export function backoffDelay(retry: number, { baseMs, capMs }: Backoff, random?: () => number): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, retry));
  return random ? Math.floor(random() * ceiling) : ceiling;
}
