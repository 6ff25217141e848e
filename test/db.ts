// Throw-away databases for tests: in-memory PGlite, or a fresh PostgreSQL database when TEST_DATABASE_URL is set.
import { randomBytes } from 'node:crypto';
import { CONSOLE_MIGRATIONS, type DatabaseHandle, openDatabase, runMigrations } from '@/lib/db/connection';
import { type ConsoleDb, schema, users } from '@/lib/db/schema';
import type { Role } from '@/lib/roles';

export interface TestDatabase {
  handle: DatabaseHandle;
  db: ConsoleDb;
  close(): Promise<void>;
}

/** An empty database: in-memory PGlite, or a new PostgreSQL database dropped on close. */
export async function openTestHandle(): Promise<{ handle: DatabaseHandle; close(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const handle = await openDatabase({ dataDir: 'memory://', schema });
    return { handle, close: () => handle.close() };
  }
  const { Client } = await import('pg');
  const name = `console_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), schema });
  return {
    handle,
    async close() {
      await handle.close();
      const cleanup = new Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const { handle, close } = await openTestHandle();
  await runMigrations(handle, CONSOLE_MIGRATIONS);
  return { handle, db: handle.db as ConsoleDb, close };
}

/** A person of the console, as the engine's actor; tests act as them directly (no password is ever checked). */
export async function addTestUser(
  db: ConsoleDb,
  email: string,
  role: Role,
): Promise<{ id: string; email: string; role: Role }> {
  const [row] = await db
    .insert(users)
    .values({ email, name: email, role, passwordHash: 'not-a-real-hash' })
    .returning({ id: users.id });
  if (!row) throw new Error(`Could not add ${email}.`);
  return { id: row.id, email, role };
}
