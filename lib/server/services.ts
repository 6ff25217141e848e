import 'server-only';
// The console's services as runtime.ts wires them at start-up: configuration, database, the embedded
// sandbox and the one way to reach a wallet's custody service. Library modules receive them as a parameter;
// the few entry points that app code calls with plain arguments (a wallet id) read them here. This module
// imports nothing of the console's own, so nothing below the runtime depends back on it.
import type { ConsoleConfig } from '@/lib/config';
import type { CustodyClient, FetchLike, TransportOptions } from '@/lib/custody';
import type { DatabaseHandle } from '@/lib/db/connection';
import type { ConsoleDb } from '@/lib/db/schema';
import type { Sandbox } from '@/lib/sandbox';
import type { ServerNote } from './server-lock';

/** How one connection differs from the usual one (a capability probe: straight to the service, short). */
export interface ConnectionOptions {
  /** Skip the shared reads: an answer kept from before a change of the service must not decide a probe. */
  direct?: boolean;
  timeoutMs?: number;
  budgetMs?: number;
  retries?: number;
}

/** Where requests to the custody service go (the real service, or the sandbox in-process) and their limits. */
export interface CustodyEndpoint {
  baseUrl: string;
  fetch: FetchLike;
  budgetMs: number;
  timeoutMs: number;
}

/** The one place that turns a connected wallet (or a key being verified) into a custody connection. */
export interface CustodyConnections {
  /** The transport options for a connected wallet, with its key; null when the console does not know it. */
  connectionFor(walletId: string, options?: ConnectionOptions): Promise<TransportOptions | null>;
  /**
   * The custody client of a connected wallet; null when the console does not know it. Without options the
   * client is kept briefly (CONNECTION_TTL_MS in ./wallets), so a request does not read and open the key again.
   */
  clientFor(walletId: string, options?: ConnectionOptions): Promise<CustodyClient | null>;
  /** A custody client for a key that is not stored yet (verified before a wallet is connected). */
  clientWithKey(apiKey: string): CustodyClient;
}

export interface ConsoleServices {
  config: ConsoleConfig;
  database: DatabaseHandle<ConsoleDb>;
  /** The embedded custody service; present only in sandbox mode. */
  sandbox?: Sandbox;
  custody: CustodyConnections;
  /** PGlite only: lets command-line tools reach this server instead of the data directory. */
  serverNote?: ServerNote;
}

const SERVICES = Symbol.for('custody-console.services');
type Holder = { [SERVICES]?: Promise<ConsoleServices> };

/** Called by the runtime (and by tests that wire their own): the services every later lookup receives. */
export function provideServices(services: ConsoleServices | Promise<ConsoleServices> | undefined): void {
  const holder = globalThis as Holder;
  if (services === undefined) {
    holder[SERVICES] = undefined;
    return;
  }
  const provided = Promise.resolve(services);
  // A failed start is reported to whoever awaits the runtime; lookups then see the same rejection.
  provided.catch(() => {});
  holder[SERVICES] = provided;
}

/** The services the runtime wired. The server's instrumentation starts the runtime before any request. */
export function currentServices(): Promise<ConsoleServices> {
  const provided = (globalThis as Holder)[SERVICES];
  if (!provided) return Promise.reject(new Error('The console runtime has not been started.'));
  return provided;
}

/** The console's database, typed by its schema, as the runtime opened it. */
export async function currentDb(): Promise<ConsoleDb> {
  return (await currentServices()).database.db;
}
