// Rate limits counted in the database, so instances sharing one database share each limit: the console's API
// for back-office systems (calls per service token per minute) and the sandbox's (calls per API key over HTTP).
// A key's window starts at its first call and lasts `windowMs`; one atomic upsert per call counts it (on PGlite
// and PostgreSQL alike), so calls at once on several instances never let more than the limit through a window.
// Refused calls count too, which changes no decision: the window ends at the same time.
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import type { AnyDb } from './types';

/** A table of windows, one row per key: the console's and the sandbox's each have one (their own migrations). */
export function rateLimitTable(name: string) {
  return pgTable(
    name,
    {
      key: text('key').primaryKey(),
      /** When the key's current window started, in milliseconds of the limiter's clock. */
      windowStart: bigint('window_start', { mode: 'number' }).notNull(),
      /** Calls in that window, refused ones included. */
      count: integer('count').notNull(),
    },
    (t) => [index(`${name}_window_start`).on(t.windowStart)],
  );
}

export type RateLimitTable = ReturnType<typeof rateLimitTable>;

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until a call would be allowed again (0 when allowed). */
  retryAfterSeconds: number;
  /** Calls left in the window. */
  remaining: number;
}

export interface RateLimiterOptions {
  table: RateLimitTable;
  windowMs: number;
  /** Clock in milliseconds; instances sharing a database should agree on it to the second. */
  now?: () => number;
  /** Every this many calls of this limiter, rows of windows over for two windows are deleted. */
  sweepEvery?: number;
}

export function createRateLimiter({ table, windowMs, now = Date.now, sweepEvery = 100 }: RateLimiterOptions) {
  let calls = 0;
  return {
    /** Counts one call of `key` against `limit` calls per window, in `db` (any instance's handle on it). */
    async take(db: AnyDb, key: string, limit: number): Promise<RateDecision> {
      const at = now();
      const over = sql`${table.windowStart} <= ${at - windowMs}`;
      const [row] = await db
        .insert(table)
        .values({ key, windowStart: at, count: 1 })
        .onConflictDoUpdate({
          target: table.key,
          set: {
            windowStart: sql`CASE WHEN ${over} THEN ${at} ELSE ${table.windowStart} END`,
            count: sql`CASE WHEN ${over} THEN 1 ELSE ${table.count} + 1 END`,
          },
        })
        .returning({ windowStart: table.windowStart, count: table.count });
      calls += 1;
      if (calls % sweepEvery === 0)
        await db.delete(table).where(sql`${table.windowStart} < ${at - 2 * windowMs}`);
      const { windowStart, count } = row ?? { windowStart: at, count: 1 };
      if (count <= limit) return { allowed: true, retryAfterSeconds: 0, remaining: limit - count };
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - at) / 1000)),
        remaining: 0,
      };
    },
  };
}
