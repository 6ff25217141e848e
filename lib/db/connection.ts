// Opens the database: PGlite files under the data directory by default, PostgreSQL when a URL is given.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AnyDb } from './types';

export interface DatabaseHandle {
  db: AnyDb;
  kind: 'pglite' | 'postgres';
  /** Raw SQL on the same connection (migrations, LISTEN/NOTIFY helpers). */
  close(): Promise<void>;
  /** PGlite only: the underlying client, for in-process notifications. */
  // biome-ignore lint/suspicious/noExplicitAny: driver client type differs per driver.
  client: any;
}

export interface OpenOptions {
  /** PostgreSQL URL; when absent, PGlite is used. */
  url?: string;
  /** PGlite data directory; `memory://` for a throw-away in-memory database. */
  dataDir?: string;
  schema?: Record<string, unknown>;
}

export async function openDatabase({ url, dataDir, schema = {} }: OpenOptions): Promise<DatabaseHandle> {
  if (url) {
    const { Pool } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const pool = new Pool({ connectionString: url, max: 10 });
    const db = drizzle({ client: pool, schema }) as unknown as AnyDb;
    return { db, kind: 'postgres', client: pool, close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  let target = dataDir ?? 'memory://';
  if (!target.startsWith('memory://')) {
    target = path.resolve(/*turbopackIgnore: true*/ target);
    mkdirSync(target, { recursive: true, mode: 0o700 });
  }
  const client = await PGlite.create(target);
  const db = drizzle({ client, schema }) as unknown as AnyDb;
  return { db, kind: 'pglite', client, close: () => client.close() };
}

export async function runMigrations(
  handle: DatabaseHandle,
  migrationsFolder: string,
  migrationsTable = '__drizzle_migrations',
): Promise<void> {
  const config = { migrationsFolder, migrationsTable, migrationsSchema: 'public' };
  if (handle.kind === 'postgres') {
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    // biome-ignore lint/suspicious/noExplicitAny: migrator wants the driver-specific database type.
    await migrate(handle.db as any, config);
  } else {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    await migrate(handle.db as any, config);
  }
}

export const CONSOLE_MIGRATIONS = path.join(/*turbopackIgnore: true*/ process.cwd(), 'lib/db/migrations');
