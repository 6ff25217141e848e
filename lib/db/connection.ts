// Opens the database: PGlite files under the data directory by default, PostgreSQL when a URL is given.
import { mkdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { AnyDb } from './types';

/** An open database; `db` is typed by the schema it was opened with (the console's, or none). */
export interface DatabaseHandle<Db extends AnyDb = AnyDb> {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Raw SQL on the same connection (migrations, LISTEN/NOTIFY helpers). */
  close(): Promise<void>;
  /** PGlite only: the underlying client, for in-process notifications. */
  // biome-ignore lint/suspicious/noExplicitAny: driver client type differs per driver.
  client: any;
}

export interface OpenOptions<S extends Record<string, unknown> = Record<string, never>> {
  /** PostgreSQL URL; when absent, PGlite is used. */
  url?: string;
  /** PGlite data directory; `memory://` for a throw-away in-memory database. */
  dataDir?: string;
  schema?: S;
  /**
   * PGlite only: a data directory to start from (a tarball from `dumpDataDir`) instead of an empty one; tests
   * clone a migrated template this way instead of initialising and migrating each database.
   */
  loadDataDir?: Blob;
  /**
   * PostgreSQL only: told when an idle pooled connection breaks (server restart, `pg_terminate_backend`).
   * The pool drops that connection and opens a new one for the next query; without a listener the pool's
   * error event would be an uncaught exception.
   */
  onConnectionError?: (error: Error) => void;
}

export async function openDatabase<S extends Record<string, unknown> = Record<string, never>>({
  url,
  dataDir,
  schema = {} as S,
  loadDataDir,
  onConnectionError = () => {},
}: OpenOptions<S>): Promise<DatabaseHandle<PgDatabase<PgQueryResultHKT, S>>> {
  if (url) {
    const { Pool } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const pool = new Pool({ connectionString: url, max: 10 });
    pool.on('error', (error) => onConnectionError(error));
    const db = drizzle({ client: pool, schema });
    return { db, kind: 'postgres', client: pool, close: () => pool.end() };
  }
  const files = preparePglite();
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  let target = dataDir ?? 'memory://';
  if (!target.startsWith('memory://')) {
    target = path.resolve(/*turbopackIgnore: true*/ target);
    mkdirSync(target, { recursive: true, mode: 0o700 });
  }
  const client = await PGlite.create(target, {
    ...((await files) ?? {}),
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  const db = drizzle({ client, schema });
  return { db, kind: 'pglite', client, close: () => client.close() };
}

type PgliteFiles = { pgliteWasmModule: WebAssembly.Module; fsBundle: Blob };
const PGLITE_FILES = Symbol.for('custody-console.pglite-files');
type FilesHolder = { [PGLITE_FILES]?: Promise<PgliteFiles | undefined> };

/**
 * Starts reading PGlite's WebAssembly module and file-system bundle and compiling the module, once per
 * process; openDatabase hands them to PGlite. The compilation runs on V8's background threads, so a server
 * that calls this first thing compiles while its main thread is still loading code. Undefined (PGlite then
 * reads its files itself) when they cannot be found.
 */
export function preparePglite(): Promise<PgliteFiles | undefined> {
  const holder = globalThis as FilesHolder;
  holder[PGLITE_FILES] ??= (async () => {
    // The package PGlite's own import resolves to: from the working directory, as Node resolves externals.
    const entry = createRequire(path.join(/*turbopackIgnore: true*/ process.cwd(), 'package.json')).resolve(
      /*turbopackIgnore: true*/ '@electric-sql/pglite',
    );
    const dist = path.dirname(entry);
    const [wasm, data] = await Promise.all([
      readFile(path.join(/*turbopackIgnore: true*/ dist, 'pglite.wasm')),
      readFile(path.join(/*turbopackIgnore: true*/ dist, 'pglite.data')),
    ]);
    return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) };
  })().catch(() => undefined);
  return holder[PGLITE_FILES];
}

/** Advisory lock key that serializes migrations across instances sharing one PostgreSQL database. */
const MIGRATIONS_LOCK_KEY = 7301;

export async function runMigrations(
  handle: DatabaseHandle,
  migrationsFolder: string,
  migrationsTable = '__drizzle_migrations',
): Promise<void> {
  // A start on a current database reads one row instead of running the migrator's schema and table DDL.
  if (await migrationsApplied(handle, migrationsFolder, migrationsTable)) return;
  const config = { migrationsFolder, migrationsTable, migrationsSchema: 'public' };
  if (handle.kind === 'postgres') {
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const { sql } = await import('drizzle-orm');
    // Console instances starting together on one empty database would each create the migrations table and
    // apply the same migrations (and fail on the duplicate). A transaction on a pooled connection of its own
    // holds an advisory lock while the migrator runs on the others: the next instance waits, then finds
    // nothing left to apply.
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATIONS_LOCK_KEY})`);
      // biome-ignore lint/suspicious/noExplicitAny: migrator wants the driver-specific database type.
      await migrate(handle.db as any, config);
    });
  } else {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    await migrate(handle.db as any, config);
  }
}

/**
 * Whether every migration in the folder's journal is recorded as applied. Drizzle's migrator applies exactly
 * the migrations newer than the latest recorded one, so "the latest recorded is at least the journal's
 * newest" means it would apply nothing. False when the table is missing or anything else goes wrong: the
 * migrator then runs and decides.
 */
export async function migrationsApplied(
  handle: DatabaseHandle,
  migrationsFolder: string,
  migrationsTable: string,
): Promise<boolean> {
  let newest: number;
  try {
    const journal = JSON.parse(
      readFileSync(path.join(/*turbopackIgnore: true*/ migrationsFolder, 'meta/_journal.json'), 'utf8'),
    ) as { entries: Array<{ when: number }> };
    newest = Math.max(...journal.entries.map((entry) => entry.when));
  } catch {
    return false;
  }
  if (!Number.isFinite(newest)) return false;
  // The table name is one of two constants of this module's callers, never input.
  const query = `select max(created_at) as latest from "public"."${migrationsTable.replaceAll('"', '""')}"`;
  try {
    const { sql } = await import('drizzle-orm');
    // Both drivers answer `execute` with `rows`.
    const result = (await handle.db.execute(sql.raw(query))) as { rows?: Array<{ latest: unknown }> };
    const latest = result.rows?.[0]?.latest;
    return latest !== null && latest !== undefined && Number(latest) >= newest;
  } catch {
    return false;
  }
}

export const CONSOLE_MIGRATIONS = path.join(/*turbopackIgnore: true*/ process.cwd(), 'lib/db/migrations');
