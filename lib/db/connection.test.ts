// The cheap "already migrated" check that lets a start skip the migrator, and that an upgrade still migrates.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CONSOLE_MIGRATIONS,
  type DatabaseHandle,
  migrationsApplied,
  openDatabase,
  runMigrations,
} from './connection';

const dir = mkdtempSync(path.join(tmpdir(), 'console-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('migrationsApplied', () => {
  it('is false on an empty database, true once migrated, false again when a newer migration ships', async () => {
    const handle = await openDatabase({ dataDir: 'memory://' });
    try {
      expect(await migrationsApplied(handle, CONSOLE_MIGRATIONS, '__drizzle_migrations')).toBe(false);
      await runMigrations(handle, CONSOLE_MIGRATIONS);
      expect(await migrationsApplied(handle, CONSOLE_MIGRATIONS, '__drizzle_migrations')).toBe(true);

      // The next release: the same folder plus one migration.
      const upgraded = path.join(dir, 'migrations');
      cpSync(CONSOLE_MIGRATIONS, upgraded, { recursive: true });
      const journalFile = path.join(upgraded, 'meta/_journal.json');
      const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as {
        entries: Array<{ idx: number; version: string; when: number; tag: string; breakpoints: boolean }>;
      };
      const last = journal.entries.at(-1)!;
      const tag = '9999_startup_check';
      journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
      writeFileSync(journalFile, JSON.stringify(journal));
      writeFileSync(path.join(upgraded, `${tag}.sql`), 'CREATE TABLE "startup_check" ("id" integer);');

      expect(await migrationsApplied(handle, upgraded, '__drizzle_migrations')).toBe(false);
      await runMigrations(handle, upgraded);
      expect(await migrationsApplied(handle, upgraded, '__drizzle_migrations')).toBe(true);
      const result = (await handle.db.execute(sql`select count(*)::int as n from startup_check`)) as {
        rows: Array<{ n: number }>;
      };
      expect(result.rows[0]?.n).toBe(0);
    } finally {
      await handle.close();
    }
  });

  it('is false when the folder has no journal, without asking the database', async () => {
    const handle = {} as DatabaseHandle;
    expect(await migrationsApplied(handle, path.join(dir, 'missing'), '__drizzle_migrations')).toBe(false);
  });
});
