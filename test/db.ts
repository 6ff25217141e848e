// Throw-away databases for tests: in-memory PGlite, or a fresh PostgreSQL database when TEST_DATABASE_URL is set.
// A database with migrations starts as a copy of a template migrated once: initialising a PGlite data directory
// costs seconds (far more than the migrations), copying a migrated one a fraction of that. PGlite's templates are
// data-directory tarballs kept under the system's temporary directory; PostgreSQL's are databases of the server
// (`CREATE DATABASE … TEMPLATE …`). Both are named by a hash of the migrations' files (and PGlite's version), so a
// changed migration makes a new template and a stale one is never used.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONSOLE_MIGRATIONS, type DatabaseHandle, openDatabase, runMigrations } from '@/lib/db/connection';
import { type ConsoleDb, schema, users } from '@/lib/db/schema';
import type { Role } from '@/lib/roles';

export interface TestDatabase {
  handle: DatabaseHandle;
  db: ConsoleDb;
  close(): Promise<void>;
}

/** A migrations folder and the table that records it (as `runMigrations` takes them). */
export interface TestMigrations {
  folder: string;
  table?: string;
}

const CONSOLE: TestMigrations = { folder: CONSOLE_MIGRATIONS };

/**
 * A new database with `migrations` applied (none: an empty database): in-memory PGlite, or a new PostgreSQL
 * database dropped on close.
 */
export async function openTestHandle(
  migrations: readonly TestMigrations[] = [],
): Promise<{ handle: DatabaseHandle; close(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const handle = await openPgliteCopy(migrations);
    return { handle, close: () => handle.close() };
  }
  const { Client } = await import('pg');
  const name = `console_test_${randomBytes(6).toString('hex')}`;
  const template = migrations.length > 0 ? await postgresTemplate(adminUrl, migrations) : null;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const handle = await openDatabase({ url: databaseUrl(adminUrl, name), schema });
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
  const { handle, close } = await openTestHandle([CONSOLE]);
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

async function migrate(handle: DatabaseHandle, migrations: readonly TestMigrations[]): Promise<void> {
  for (const { folder, table } of migrations) await runMigrations(handle, folder, table);
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Every file of the migration folders, names and contents, hashed: what makes two templates the same. */
function migrationsHash(migrations: readonly TestMigrations[], salt: string): string {
  const hash = createHash('sha256').update(salt);
  for (const { folder, table = '__drizzle_migrations' } of migrations) {
    hash.update(`\0${table}\0`);
    const files = readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort();
    for (const file of files) hash.update(`\0${path.relative(folder, file)}\0`).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 20);
}

// ---- PGlite: a data-directory tarball per set of migrations, on disk and once per process in memory.

const TEMPLATE_DIR = path.join(tmpdir(), 'custody-console-test-templates');
const pgliteTemplates = new Map<string, Promise<{ tarball: Blob; file: string; fromDisk: boolean }>>();

function pgliteVersion(): string {
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  const entry = require.resolve('@electric-sql/pglite');
  const manifest = path.join(path.dirname(entry), '..', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

async function openPgliteCopy(migrations: readonly TestMigrations[]): Promise<DatabaseHandle> {
  const key = `pglite-${migrationsHash(migrations, pgliteVersion())}`;
  let template = pgliteTemplates.get(key);
  if (!template) {
    template = pgliteTemplate(key, migrations);
    pgliteTemplates.set(key, template);
    template.catch(() => pgliteTemplates.delete(key));
  }
  const { tarball, file, fromDisk } = await template;
  try {
    return await openDatabase({ dataDir: 'memory://', schema, loadDataDir: tarball });
  } catch (error) {
    if (!fromDisk) throw error;
    // A template left on disk that does not load (another PGlite build wrote it, a damaged file): build it again.
    rmSync(file, { force: true });
    pgliteTemplates.delete(key);
    return openPgliteCopy(migrations);
  }
}

async function pgliteTemplate(key: string, migrations: readonly TestMigrations[]) {
  const file = path.join(TEMPLATE_DIR, `${key}.tar`);
  try {
    return { tarball: new Blob([await readFile(file)]), file, fromDisk: true };
  } catch {
    // Not built yet.
  }
  const handle = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrate(handle, migrations);
    // Everything on the data directory's files (no recovery when a copy starts), then the directory as a tarball.
    await handle.client.exec('CHECKPOINT');
    const bytes = new Uint8Array(await (await handle.client.dumpDataDir('none')).arrayBuffer());
    mkdirSync(TEMPLATE_DIR, { recursive: true });
    // Written aside and renamed: a reader sees the whole file or none (two workers may build the same template).
    const partial = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, bytes);
    renameSync(partial, file);
    return { tarball: new Blob([bytes]), file, fromDisk: false };
  } finally {
    await handle.close();
  }
}

// ---- PostgreSQL: a template database per set of migrations, kept on the server.

const postgresTemplates = new Map<string, Promise<string>>();

function postgresTemplate(adminUrl: string, migrations: readonly TestMigrations[]): Promise<string> {
  const name = `console_template_${migrationsHash(migrations, 'postgres')}`;
  let template = postgresTemplates.get(name);
  if (!template) {
    template = ensurePostgresTemplate(adminUrl, name, migrations);
    postgresTemplates.set(name, template);
    template.catch(() => postgresTemplates.delete(name));
  }
  return template;
}

async function ensurePostgresTemplate(
  adminUrl: string,
  name: string,
  migrations: readonly TestMigrations[],
): Promise<string> {
  const { Client } = await import('pg');
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount) return name;
    // Built under a name of its own and renamed when complete and closed (a database being copied must have no
    // connections): another worker building the same template at once loses the rename and drops its copy.
    const building = `${name}_build_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${building}`);
    try {
      const handle = await openDatabase({ url: databaseUrl(adminUrl, building) });
      try {
        await migrate(handle, migrations);
      } finally {
        await handle.close();
      }
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch (error) {
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      // 42P04: the other worker's template is there.
      if ((error as { code?: string }).code !== '42P04') throw error;
    }
    return name;
  } finally {
    await admin.end();
  }
}
