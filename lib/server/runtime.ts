import 'server-only';
// Wires the console once per process: configuration, database, embedded sandbox, custody connections, the
// approval loop. Route entry points and the action wrapper start it; library modules receive what it built.
import { getConfig } from '@/lib/config';
import { CONSOLE_MIGRATIONS, openDatabase, runMigrations } from '@/lib/db/connection';
import { type ConsoleDb, schema } from '@/lib/db/schema';
import { seedDemoAddressBook } from './demo-address-book';
import { logger } from './logger';
import { writeServerNote } from './server-lock';
import { type ConsoleServices, provideServices } from './services';
import { seedDemoUsers } from './users';
import { connectSandboxWallets, createCustodyConnections } from './wallets';

export type Runtime = ConsoleServices;

const RUNTIME = Symbol.for('custody-console.runtime');
/** How long after ready the loops, schedules and probes start. */
const BACKGROUND_DELAY_MS = 1_000;
type Holder = { [RUNTIME]?: Promise<Runtime> };

/** What boot leaves for after ready: the sandbox wallets to probe. */
interface Booted {
  runtime: Runtime;
  walletIds: string[];
}

/**
 * Everything a request needs, and nothing more: the database opened and migrated, the sandbox started and
 * seeded, the custody connections. Loops, schedules, the sandbox's block timer and the capability probes
 * start after (startBackgroundWork), so health says ready as soon as requests can be served.
 */
async function boot(): Promise<Booted> {
  const config = getConfig();
  const log = logger.child({ component: 'runtime' });
  if (config.generatedSecretsAt) {
    log.info(
      { file: config.generatedSecretsAt },
      'generated local session secret and encryption key (sandbox mode)',
    );
  }
  const opening = openDatabase({
    url: config.env.DATABASE_URL,
    dataDir: `${config.dataDir}/pglite`,
    schema,
    // The message only: the pool attaches the client, whose connection parameters hold the password.
    onConnectionError: (error) =>
      log.warn({ reason: error.message }, 'a pooled database connection broke; it is replaced'),
  });
  // Loaded only in sandbox mode: against the real service the embedded one is never part of the process.
  // Its modules load while PGlite reads and compiles its files, which happens off the main thread.
  const [database, sandboxBoot] = await Promise.all([
    opening,
    config.sandboxMode ? import('./sandbox-boot') : undefined,
  ]);
  await runMigrations(database, CONSOLE_MIGRATIONS);
  log.info({ database: database.kind, sandboxMode: config.sandboxMode }, 'database ready');
  const sandbox = sandboxBoot ? await sandboxBoot.startSandbox(config, database) : undefined;
  const parts = { config, database, sandbox };
  const runtime: Runtime = { ...parts, custody: createCustodyConnections(parts) };
  let walletIds: string[] = [];
  if (sandbox) {
    walletIds = await connectSandboxWallets(runtime);
    await seedDemoUsers(database.db);
    // Payees past their cooling-off, so the demo pays them under the destination policy; and each wallet's cold
    // storage (the sandbox's seeded wallet-level auto-settlement rule sends deposits there), so the demo can
    // switch auto-settlement on.
    const { wallets } = await sandbox.credentials();
    const coldStorage = new Map(
      wallets.map((w) => [
        w.id,
        w.addresses
          .filter((a) => a.type === 'EXTERNAL' && a.name === 'Cold storage')
          .map((a) => ({ name: 'Cold storage', address: a.address })),
      ]),
    );
    await seedDemoAddressBook(database.db, config.env.SANDBOX_SEED, new Date(), coldStorage);
  }
  if (database.kind === 'pglite') runtime.serverNote = writeServerNote(config.dataDir, config.env.PORT);
  return { runtime, walletIds };
}

/**
 * Work that no request waits for, started once the runtime is ready: the approval loop, alerts, the
 * statement and payout schedules, the sandbox's block timer and the wallets' capability probes (a page that
 * needs a probe before it ends joins it). Their modules load here too, after ready.
 */
async function startBackgroundWork({ runtime, walletIds }: Booted): Promise<void> {
  const [{ startAlerts }, { getApprovalEngine, startApprovalsLoop }, capabilities, payouts, statements] =
    await Promise.all([
      import('./alerts'),
      import('./approvals'),
      import('./capabilities'),
      import('./payout-schedules'),
      import('./statement-schedule'),
    ]);
  runtime.sandbox?.start();
  void Promise.all(walletIds.map((id) => capabilities.probeCapabilities(id, runtime)));
  startApprovalsLoop(runtime);
  startAlerts(runtime);
  statements.startStatementSchedule(runtime);
  payouts.startPayoutSchedules(runtime, getApprovalEngine);
}

/** The process-wide runtime: database opened and migrated, sandbox started. One per process. */
export function getRuntime(): Promise<Runtime> {
  const holder = globalThis as Holder;
  if (!holder[RUNTIME]) {
    const started = boot().then(
      (booted) => {
        // A moment later: the requests that waited for the start go first (one process, one event loop).
        setTimeout(() => {
          startBackgroundWork(booted).catch((error) =>
            logger.error({ err: error }, 'the console could not start its background work'),
          );
        }, BACKGROUND_DELAY_MS).unref?.();
        return booted.runtime;
      },
      (error) => {
        holder[RUNTIME] = undefined;
        provideServices(undefined);
        throw error;
      },
    );
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
