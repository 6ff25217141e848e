import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  it('starts at the base and doubles per retry up to the cap', () => {
    const waits = Array.from({ length: 8 }, (_, retry) =>
      backoffDelay(retry, { baseMs: 1_000, capMs: 30_000 }),
    );
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('reads a negative retry as the first', () => {
    expect(backoffDelay(-1, { baseMs: 5_000, capMs: 600_000 })).toBe(5_000);
  });

  it('keeps the delays each caller had', () => {
    // Alert deliveries: 5 s after the first failure, at most 10 min.
    expect([0, 1, 7, 20].map((r) => backoffDelay(r, { baseMs: 5_000, capMs: 600_000 }))).toEqual([
      5_000, 10_000, 600_000, 600_000,
    ]);
    // Follow-up of submitted requests: 2 s doubling to 5 min.
    expect([0, 3, 8].map((r) => backoffDelay(r, { baseMs: 2_000, capMs: 300_000 }))).toEqual([
      2_000, 16_000, 300_000,
    ]);
  });

  it('with a random source, full jitter: a whole number from 0 up to the wait', () => {
    const settings = { baseMs: 100, capMs: 10_000 };
    expect(backoffDelay(2, settings, () => 0)).toBe(0);
    expect(backoffDelay(2, settings, () => 0.5)).toBe(200);
    expect(backoffDelay(2, settings, () => 0.999)).toBe(399);
    expect(backoffDelay(10, settings, () => 0.999)).toBe(9_990);
  });
});
