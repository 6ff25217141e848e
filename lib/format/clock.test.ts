import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

describe('browserClock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.resetModules();
  });
  afterEach(() => vi.useRealTimers());

  it('never changes the time while a subscriber joins: only a tick does, and it tells everyone', async () => {
    vi.setSystemTime(new Date('2026-11-25T12:00:00Z'));
    const { browserClock } = await import('./clock');
    const first = vi.fn();
    const stopFirst = browserClock.subscribe(first);
    const start = browserClock.getSnapshot();
    // Time moves on between two subscriptions (a table cell remounting, say): the snapshot stays put.
    vi.setSystemTime(new Date('2026-11-25T12:00:05Z'));
    const second = vi.fn();
    const stopSecond = browserClock.subscribe(second);
    expect(browserClock.getSnapshot()).toBe(start);
    expect(first).not.toHaveBeenCalled();

    vi.advanceTimersByTime(30_000);
    expect(browserClock.getSnapshot()).toBe(Date.parse('2026-11-25T12:00:35Z'));
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
    stopFirst();
    stopSecond();
  });

  it('a page opened long after the last tick is told the current time at once', async () => {
    vi.setSystemTime(new Date('2026-11-25T12:00:00Z'));
    const { browserClock } = await import('./clock');
    vi.setSystemTime(new Date('2026-11-25T13:00:00Z'));
    const listener = vi.fn();
    const stop = browserClock.subscribe(listener);
    expect(browserClock.getSnapshot()).toBe(Date.parse('2026-11-25T12:00:00Z'));
    vi.advanceTimersByTime(0);
    expect(browserClock.getSnapshot()).toBe(Date.parse('2026-11-25T13:00:00Z'));
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
  });
});
