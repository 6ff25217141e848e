import 'server-only';
import { type ConsoleConfig, getConfig } from '@/lib/config';
import { CONSOLE_MIGRATIONS, type DatabaseHandle, openDatabase, runMigrations } from '@/lib/db/connection';
import { schema } from '@/lib/db/schema';
import type { Sandbox } from '@/lib/sandbox';
import { logger } from './logger';

export interface Runtime {
  config: ConsoleConfig;
  database: DatabaseHandle;
  /** The embedded custody service; present only in sandbox mode. */
  sandbox?: Sandbox;
  /** PGlite only: lets command-line tools reach this server instead of the data directory. */
  serverNote?: import('./server-lock').ServerNote;
}

const RUNTIME = Symbol.for('custody-console.runtime');
type Holder = { [RUNTIME]?: Promise<Runtime> };

async function boot(): Promise<Runtime> {
  const config = getConfig();
  const log = logger.child({ component: 'runtime' });
  if (config.generatedSecretsAt) {
    log.info(
      { file: config.generatedSecretsAt },
      'generated local session secret and encryption key (sandbox mode)',
    );
  }
  const database = await openDatabase({
    url: config.env.DATABASE_URL,
    dataDir: `${config.dataDir}/pglite`,
    schema,
    // The message only: the pool attaches the client, whose connection parameters hold the password.
    onConnectionError: (error) =>
      log.warn({ reason: error.message }, 'a pooled database connection broke; it is replaced'),
  });
  await runMigrations(database, CONSOLE_MIGRATIONS);
  log.info({ database: database.kind, sandboxMode: config.sandboxMode }, 'database ready');
  const runtime: Runtime = { config, database };
  if (config.sandboxMode) {
    const { startSandbox } = await import('./sandbox-boot');
    runtime.sandbox = await startSandbox(runtime);
    const { connectSandboxWallets } = await import('./wallets');
    await connectSandboxWallets(runtime);
  }
  const { seedDemoUsers } = await import('./users');
  if (config.sandboxMode) await seedDemoUsers(database.db);
  void import('./approvals').then((approvals) => approvals.startApprovalsLoop(runtime));
  if (database.kind === 'pglite') {
    const { writeServerNote } = await import('./server-lock');
    runtime.serverNote = writeServerNote(config.dataDir, config.env.PORT);
  }
  return runtime;
}

/** The process-wide runtime: database opened and migrated, sandbox started. One per process. */
export function getRuntime(): Promise<Runtime> {
  const holder = globalThis as Holder;
  if (!holder[RUNTIME]) {
    holder[RUNTIME] = boot().catch((error) => {
      holder[RUNTIME] = undefined;
      throw error;
    });
  }
  return holder[RUNTIME];
}

export async function getDb() {
  return (await getRuntime()).database.db as import('@/lib/db/schema').ConsoleDb;
}
