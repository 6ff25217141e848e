import 'server-only';
// Wires the console once per process: configuration, database, embedded sandbox, custody connections, the
// approval loop. Route entry points and the action wrapper start it; library modules receive what it built.
import { getConfig } from '@/lib/config';
import { CONSOLE_MIGRATIONS, openDatabase, runMigrations } from '@/lib/db/connection';
import { type ConsoleDb, schema } from '@/lib/db/schema';
import { startAlerts } from './alerts';
import { getApprovalEngine, startApprovalsLoop } from './approvals';
import { probeCapabilities } from './capabilities';
import { logger } from './logger';
import { startPayoutSchedules } from './payout-schedules';
import { writeServerNote } from './server-lock';
import { type ConsoleServices, provideServices } from './services';
import { startStatementSchedule } from './statement-schedule';
import { seedDemoUsers } from './users';
import { connectSandboxWallets, createCustodyConnections } from './wallets';

export type Runtime = ConsoleServices;

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
  // Loaded only in sandbox mode: against the real service the embedded one is never part of the process.
  const sandbox = config.sandboxMode
    ? await (await import('./sandbox-boot')).startSandbox(config, database)
    : undefined;
  const parts = { config, database, sandbox };
  const runtime: Runtime = { ...parts, custody: createCustodyConnections(parts) };
  if (sandbox) {
    const walletIds = await connectSandboxWallets(runtime);
    // Not awaited: start-up does not wait for the probes; a page that needs one before it ends joins it.
    void Promise.all(walletIds.map((id) => probeCapabilities(id, runtime)));
    await seedDemoUsers(database.db);
  }
  startApprovalsLoop(runtime);
  startAlerts(runtime);
  startStatementSchedule(runtime);
  startPayoutSchedules(runtime, getApprovalEngine);
  if (database.kind === 'pglite') runtime.serverNote = writeServerNote(config.dataDir, config.env.PORT);
  return runtime;
}

/** The process-wide runtime: database opened and migrated, sandbox started. One per process. */
export function getRuntime(): Promise<Runtime> {
  const holder = globalThis as Holder;
  if (!holder[RUNTIME]) {
    const started = boot().catch((error) => {
      holder[RUNTIME] = undefined;
      provideServices(undefined);
      throw error;
    });
    holder[RUNTIME] = started;
    // Library modules that app code calls with plain arguments wait for this same start.
    provideServices(started);
  }
  return holder[RUNTIME];
}

/** The console's database, typed by its schema. */
export async function getDb(): Promise<ConsoleDb> {
  return (await getRuntime()).database.db;
}
