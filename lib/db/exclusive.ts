import 'server-only';
// Work that must happen once across instances sharing one database: the sandbox's seeding and block tick, the
// console's monthly statements. On PostgreSQL several console instances may share the database, so an advisory
// lock decides; PGlite is opened by one process only, where an in-process lock per database object does the same
// job.
import { sql } from 'drizzle-orm';
import type { AnyDb } from './types';

/** Advisory lock keys; fixed so that every instance, whatever its version, contends on the same ones. */
export const SEED_LOCK_KEY = 7302;
export const TICK_LOCK_KEY = 7303;
export const STATEMENTS_LOCK_KEY = 7304;

type Outcome<T> = { ran: true; value: T } | { ran: false };

const held = new WeakMap<object, Map<number, Promise<unknown>>>();

/** Whether `select pg_try_advisory_xact_lock(...) as locked` answered true (node-postgres returns `rows`). */
function lockTaken(result: unknown): boolean {
  if (typeof result !== 'object' || result === null || !('rows' in result) || !Array.isArray(result.rows))
    return false;
  const row: unknown = result.rows[0];
  return typeof row === 'object' && row !== null && 'locked' in row && Boolean(row.locked);
}

/**
 * Runs `work` while holding lock `key` on this database. `wait` queues behind a holder; `try` gives up at
 * once (`ran: false`) when another instance holds it. `work` uses `db` itself: on PostgreSQL the lock is
 * held by a transaction on a connection of its own that stays open for the duration, so `work` may run
 * several transactions of its own.
 */
export async function withDatabaseLock<T>(
  db: AnyDb,
  kind: 'pglite' | 'postgres',
  key: number,
  mode: 'wait' | 'try',
  work: () => Promise<T>,
): Promise<Outcome<T>> {
  if (kind === 'postgres') {
    return db.transaction(async (tx) => {
      if (mode === 'try') {
        const result = await tx.execute(sql`select pg_try_advisory_xact_lock(${key}) as locked`);
        if (!lockTaken(result)) return { ran: false } as const;
      } else {
        await tx.execute(sql`select pg_advisory_xact_lock(${key})`);
      }
      return { ran: true, value: await work() } as const;
    });
  }
  let locks = held.get(db);
  if (!locks) {
    locks = new Map();
    held.set(db, locks);
  }
  const current = locks.get(key);
  if (current && mode === 'try') return { ran: false };
  const run = (current ?? Promise.resolve()).catch(() => {}).then(work);
  const tail = run.catch(() => {});
  locks.set(key, tail);
  try {
    return { ran: true, value: await run };
  } finally {
    if (locks.get(key) === tail) locks.delete(key);
  }
}
