import 'server-only';
// Calls per token per minute, counted in this process (a sliding window of one-second buckets). A console of
// several instances lets a token up to its limit on each; the daily cap, kept in the database, is the bound on
// money, this is a bound on load.

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until a call would be allowed again (0 when allowed). */
  retryAfterSeconds: number;
  remaining: number;
}

const WINDOW_MS = 60_000;

export function createRateLimiter(now: () => number = Date.now) {
  const calls = new Map<string, number[]>();
  return {
    take(key: string, perMinute: number): RateDecision {
      const at = now();
      const recent = (calls.get(key) ?? []).filter((t) => at - t < WINDOW_MS);
      if (recent.length >= perMinute) {
        calls.set(key, recent);
        const oldest = recent[0] ?? at;
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((oldest + WINDOW_MS - at) / 1000)),
          remaining: 0,
        };
      }
      recent.push(at);
      calls.set(key, recent);
      if (calls.size > 10_000)
        for (const [k, v] of calls) if (v.every((t) => at - t >= WINDOW_MS)) calls.delete(k);
      return { allowed: true, retryAfterSeconds: 0, remaining: perMinute - recent.length };
    },
  };
}
