// Opens the console's database for a command-line tool, unless a running console already holds it.
import { loadConfig } from '@/lib/config';
import { CONSOLE_MIGRATIONS, type DatabaseHandle, openDatabase, runMigrations } from '@/lib/db/connection';
import { schema } from '@/lib/db/schema';
import { readServerNote, type ServerNote } from '@/lib/server/server-lock';

export type CliTarget = { kind: 'server'; note: ServerNote } | { kind: 'database'; handle: DatabaseHandle };

export async function openCliTarget(): Promise<CliTarget> {
  const config = loadConfig();
  if (!config.env.DATABASE_URL) {
    const note = readServerNote(config.dataDir);
    if (note) return { kind: 'server', note };
  }
  const handle = await openDatabase({
    url: config.env.DATABASE_URL,
    dataDir: `${config.dataDir}/pglite`,
    schema,
  });
  await runMigrations(handle, CONSOLE_MIGRATIONS);
  return { kind: 'database', handle };
}

export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
