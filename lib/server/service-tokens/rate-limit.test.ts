import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limit';

describe('service token rate limit', () => {
  it('lets the limit through in a minute, refuses the next with the seconds until the oldest call leaves', () => {
    let now = 1_000_000;
    const limiter = createRateLimiter(() => now);
    expect(limiter.take('a', 3)).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 2 });
    now += 10_000;
    limiter.take('a', 3);
    limiter.take('a', 3);
    const refused = limiter.take('a', 3);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(50);
    // Another token has its own count.
    expect(limiter.take('b', 3).allowed).toBe(true);
    now += 50_000;
    expect(limiter.take('a', 3).allowed).toBe(true);
  });
});
