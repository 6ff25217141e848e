// The rate limiter over a database: on PGlite by default, on PostgreSQL when TEST_DATABASE_URL is set. Two
// limiters over two handles on one database stand for two console instances sharing it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestHandle } from '@/test/db';
import { CONSOLE_MIGRATIONS, type DatabaseHandle, openDatabase } from './connection';
import { createRateLimiter } from './rate-limit';
import { rateLimitWindows } from './schema';
import type { AnyDb } from './types';

let database: DatabaseHandle;
let closeDatabase: () => Promise<void>;
/** A second handle on the same database: on PGlite another Drizzle object on the client, on PostgreSQL a pool. */
let other: AnyDb;
let closeOther: () => Promise<void> = async () => {};

beforeAll(async () => {
  const opened = await openTestHandle([{ folder: CONSOLE_MIGRATIONS }]);
  database = opened.handle;
  closeDatabase = opened.close;
  if (database.kind === 'postgres') {
    const second = await openDatabase({ url: database.client.options.connectionString as string });
    other = second.db;
    closeOther = () => second.close();
  } else {
    const { drizzle } = await import('drizzle-orm/pglite');
    other = drizzle({ client: database.client });
  }
});

afterAll(async () => {
  await closeOther();
  await closeDatabase?.();
});

describe('rate limit counted in the database', () => {
  it('lets the limit through in a window, refuses the next with the seconds until the window ends', async () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ table: rateLimitWindows, windowMs: 60_000, now: () => now });
    const take = (key: string) => limiter.take(database.db, key, 3);
    expect(await take('a')).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 2 });
    now += 10_000;
    expect(await take('a')).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 1 });
    expect(await take('a')).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 0 });
    expect(await take('a')).toEqual({ allowed: false, retryAfterSeconds: 50, remaining: 0 });
    // Another key has its own count.
    expect((await take('b')).allowed).toBe(true);
    now += 50_000;
    expect(await take('a')).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 2 });
  });

  it('allows the limit per window of seconds, then answers with the seconds to wait', async () => {
    let t = 0;
    const limiter = createRateLimiter({ table: rateLimitWindows, windowMs: 10_000, now: () => t });
    const hit = async (key: string) => limiter.take(database.db, key, 2);
    expect((await hit('k')).allowed).toBe(true);
    expect((await hit('k')).allowed).toBe(true);
    expect(await hit('k')).toEqual({ allowed: false, retryAfterSeconds: 10, remaining: 0 });
    expect((await hit('other')).allowed).toBe(true);
    t = 10_000;
    expect((await hit('k')).allowed).toBe(true);
  });

  it('two instances over one database share the limit: 60 a minute in all, the 61st refused', async () => {
    let now = 5_000_000;
    const clock = () => now;
    const first = createRateLimiter({ table: rateLimitWindows, windowMs: 60_000, now: clock });
    const second = createRateLimiter({ table: rateLimitWindows, windowMs: 60_000, now: clock });
    const decisions = [];
    for (let i = 0; i < 60; i++) {
      now += 500;
      decisions.push(
        await (i % 2 ? first.take(database.db, 'shared', 60) : second.take(other, 'shared', 60)),
      );
    }
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(decisions.map((d) => d.remaining).slice(-3)).toEqual([2, 1, 0]);
    // 30 s after the window's first call.
    now = 5_000_500 + 30_000;
    expect(await first.take(database.db, 'shared', 60)).toEqual({
      allowed: false,
      retryAfterSeconds: 30,
      remaining: 0,
    });
    expect((await second.take(other, 'shared', 60)).allowed).toBe(false);
    // The window moves on with the clock: a minute after its first call the next one starts.
    now = 5_000_500 + 60_000;
    expect(await second.take(other, 'shared', 60)).toEqual({
      allowed: true,
      retryAfterSeconds: 0,
      remaining: 59,
    });
    expect(await first.take(database.db, 'shared', 60)).toEqual({
      allowed: true,
      retryAfterSeconds: 0,
      remaining: 58,
    });
  });

  it('calls at once on two instances never let more than the limit through', async () => {
    const now = () => 9_000_000;
    const first = createRateLimiter({ table: rateLimitWindows, windowMs: 60_000, now });
    const second = createRateLimiter({ table: rateLimitWindows, windowMs: 60_000, now });
    const decisions = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        i % 2 ? first.take(database.db, 'burst', 60) : second.take(other, 'burst', 60),
      ),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
    expect(decisions.filter((d) => !d.allowed).every((d) => d.retryAfterSeconds === 60)).toBe(true);
    expect(decisions.map((d) => d.remaining).sort((a, b) => a - b)).toEqual([
      ...Array(41).fill(0),
      ...Array.from({ length: 59 }, (_, i) => i + 1),
    ]);
  });

  it('deletes windows over for two windows now and then', async () => {
    let now = 20_000_000;
    const limiter = createRateLimiter({
      table: rateLimitWindows,
      windowMs: 1_000,
      now: () => now,
      sweepEvery: 3,
    });
    await limiter.take(database.db, 'old-1', 5);
    await limiter.take(database.db, 'old-2', 5);
    now += 2_500;
    const keys = async () =>
      (await database.db.select({ key: rateLimitWindows.key }).from(rateLimitWindows))
        .map((r) => r.key)
        .filter((k) => k.startsWith('old') || k === 'new');
    await limiter.take(database.db, 'new', 5);
    expect((await keys()).sort()).toEqual(['new']);
  });
});
