import 'server-only';
// The embedded custody service (DESIGN.md, "The embedded sandbox"): the spec's API over the console's database.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { asc, eq, isNull } from 'drizzle-orm';
import { untilAborted } from '@/lib/custody/abort';
import type { DatabaseHandle } from '@/lib/db/connection';
import { migrationsApplied, runMigrations } from '@/lib/db/connection';
import { SEED_LOCK_KEY, TICK_LOCK_KEY, withDatabaseLock } from '@/lib/db/exclusive';
import { createRateLimiter } from '@/lib/db/rate-limit';
import type { AnyDb } from '@/lib/db/types';
import { countUnsettled, mineBlock, processPending } from './chain';
import { Catalog, HttpError, type Logger, loadKeyRing, type SealedSecrets } from './context';
import { SandboxCore } from './core';
import { sandboxBeneficiaries, sandboxBlockchains, sandboxMeta, sandboxRateLimitWindows } from './db/schema';
import { type ConsumedFaults, FaultStore } from './faults';
import type { SandboxContext } from './handlers';
import { hashApiKey, totpCode } from './keys';
import { openApiDocument } from './openapi';
import {
  authenticate,
  authorizeWallet,
  envelope,
  errorResponse,
  isExtensionRoute,
  matchRoute,
  readBody,
} from './router';
import { isSeeded, seedSandbox } from './seed';
import { countQueued, deliverDue } from './webhooks';

export interface SandboxOptions {
  db: AnyDb;
  dbKind: 'pglite' | 'postgres';
  /** 32 bytes: seals the mnemonic, the TOTP secret and the API keys at rest. */
  encryptionKey: Buffer;
  /** SANDBOX_SEED: the shape of the seeded data (names, amounts, history) follows it. */
  seed: string;
  /** SANDBOX_BLOCK_TIME_MS: one block per chain every this many milliseconds once started. */
  blockTimeMs: number;
  /** SANDBOX_QUOTE_TTL_MS: how long a swap quote holds; default 60 s. */
  quoteTtlMs?: number;
  /** Every wallet's webhookUrl. */
  webhookUrl: string;
  /** Delay before each retry of a failed delivery; its length is the number of retries. */
  webhookRetryMs: number[];
  /** Header carrying the hex HMAC-SHA512 of the body, keyed by the wallet's API key. */
  signatureHeader: string;
  /** Where outside clients reach the sandbox, e.g. http://localhost:3000/sandbox. */
  baseUrl: string;
  /** Where sandbox-credentials.json is written (mode 0600). */
  dataDir: string;
  /** Used for webhook deliveries. */
  fetch?: typeof fetch;
  /** Clock in milliseconds (timestamps, TOTP, rate limit, retry schedule). */
  now?: () => number;
  /**
   * Per-key rate limit of calls over HTTP (`handle`); default 600 requests per 10 s, counted in the database so
   * instances sharing it share each key's limit. In-process calls are not limited.
   */
  rateLimit?: { limit: number; windowMs: number };
  /** Confirmations before a transaction settles; default 3. */
  confirmations?: number;
  logger?: Logger;
  /** Default: lib/sandbox/db/migrations under the working directory. */
  migrationsFolder?: string;
  /** SANDBOX_SPEC_ONLY: every wallet starts with the extension endpoints off (POST /control/faults turns them on). */
  specOnly?: boolean;
  /**
   * SANDBOX_SEED_TRANSACTIONS: historical transactions added to the first wallet when the sandbox seeds an
   * empty database (a large list for performance work); default 0. A database seeded before keeps its data.
   */
  seedTransactions?: number;
}

export interface SandboxCredentials {
  baseUrl: string;
  totpSecret: string;
  wallets: Array<{
    id: string;
    name: string;
    apiKey: string;
    address: string;
    blockchain: string;
    network: string;
    assets: Array<{ id: string; assetId: string; symbol: string; decimals: number; address: string }>;
    addresses: Array<{
      id: string;
      address: string;
      type: string;
      name: string | null;
      disableAutoSweep: boolean;
    }>;
    beneficiaries: Array<{ id: string }>;
  }>;
}

export interface Sandbox {
  /** Answers one HTTP request from an outside caller (rate-limited per key); the path may start with /sandbox or not. */
  handle(request: Request): Promise<Response>;
  /** The console's in-process transport, for createCustodyClient({ fetch }): handle() without the rate limit. */
  fetch: typeof fetch;
  /** Starts the block timer (one tick per blockTimeMs). */
  start(): void;
  /**
   * Stops the timer and waits for the running tick and deliveries. Calls held by a `delayNextMs` fault
   * execute at once and are waited for too.
   */
  stop(): Promise<void>;
  /**
   * Mines one block: inclusion, confirmations, settlement, sweeps, then due webhook deliveries. False when
   * another instance on the same database was mining at that moment, so this one skipped the block.
   */
  tick(): Promise<boolean>;
  /** Ticks until no transaction or sweep is left to settle (bounded). */
  settleAll(maxBlocks?: number): Promise<number>;
  /** Attempts queued deliveries; `ignoreSchedule` runs retries now instead of after their backoff. */
  deliverWebhooks(options?: { ignoreSchedule?: boolean }): Promise<number>;
  /** settleAll, then every delivery and retry until the queue is empty: deterministic tests without sleeps. */
  drain(): Promise<void>;
  credentials(): Promise<SandboxCredentials>;
  /** The business's current two-factor code (sandbox only: stands in for the person's authenticator app). */
  totpCode(atMs?: number): string;
}

const CREDENTIALS_FILE = 'sandbox-credentials.json';
/** The sandbox's migrations: their default folder and the table that records them (beside the console's). */
export const SANDBOX_MIGRATIONS = {
  folder: path.join(process.cwd(), 'lib/sandbox/db/migrations'),
  table: '__sandbox_migrations',
} as const;
const SANDBOX_MIGRATIONS_TABLE = SANDBOX_MIGRATIONS.table;

const DROPPED = Symbol('answer dropped');

export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const logger: Logger = options.logger ?? {
    error: (details, message) => console.error(`[sandbox] ${message}`, details),
  };
  // runMigrations reads only `db` and `kind` from the handle.
  const handle = {
    db: options.db,
    kind: options.dbKind,
    client: undefined,
    close: async () => {},
  } as DatabaseHandle;
  const migrationsFolder = options.migrationsFolder ?? SANDBOX_MIGRATIONS.folder;
  // A database already migrated and seeded (every start but the first) needs no migrator: two cheap reads.
  const current =
    (await migrationsApplied(handle, migrationsFolder, SANDBOX_MIGRATIONS_TABLE)) &&
    (await isSeeded(options.db));
  // Instances starting together on one empty database must neither migrate nor seed twice: the second
  // waits for the first, then finds the schema current and the seed marker present.
  await withDatabaseLock(options.db, options.dbKind, SEED_LOCK_KEY, 'wait', async () => {
    if (current) return;
    await runMigrations(handle, migrationsFolder, SANDBOX_MIGRATIONS_TABLE);
    if (await isSeeded(options.db)) return;
    await seedSandbox({
      db: options.db,
      seed: options.seed,
      encryptionKey: options.encryptionKey,
      webhookUrl: options.webhookUrl,
      now: now(),
      confirmations: options.confirmations ?? 3,
      extraTransactions: options.seedTransactions ?? 0,
    });
  });
  const catalog = new Catalog();
  await catalog.load(options.db, options.encryptionKey);
  const [secretsRow] = await options.db.select().from(sandboxMeta).where(eq(sandboxMeta.key, 'secrets'));
  if (!secretsRow) throw new Error('Sandbox secrets are missing from the database');
  const { keys, totpSecret } = loadKeyRing(secretsRow.value as SealedSecrets, options.encryptionKey);

  let timer: ReturnType<typeof setInterval> | undefined;
  let chainLock: Promise<unknown> = Promise.resolve();
  const inFlight = new Set<string>();
  const background = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    background.add(p);
    p.finally(() => background.delete(p)).catch(() => {});
    return p;
  };

  const core = new SandboxCore({
    db: options.db,
    catalog,
    keys,
    totpSecret,
    now,
    webhookUrl: options.webhookUrl,
    webhookRetryMs: options.webhookRetryMs,
    signatureHeader: options.signatureHeader,
    confirmations: options.confirmations ?? 3,
    quoteTtlMs: options.quoteTtlMs ?? 60_000,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    logger,
    encryptionKey: options.encryptionKey,
    // Deliveries never run on the request path: a running sandbox starts them on the next turn of the event loop.
    onWebhookQueued: () => {
      if (timer) setImmediate(() => void track(deliverDue(core, inFlight).catch(logDeliveryError)));
    },
    onCatalogChanged: () => {
      track(
        writeCredentials().catch((error) =>
          logger.error({ err: error }, 'could not write sandbox credentials'),
        ),
      );
    },
  });
  const faults = new FaultStore(options.specOnly ?? false);
  const context: SandboxContext = { core, faults };
  /** Calls held by a `delayNextMs` fault; stop() ends their wait early. */
  const delayed = new Set<{ wake: () => void; done: Promise<unknown> }>();
  // Counted in the database: instances sharing it share each key's limit.
  const rateLimit = options.rateLimit?.limit ?? 600;
  const limiter = createRateLimiter({
    table: sandboxRateLimitWindows,
    windowMs: options.rateLimit?.windowMs ?? 10_000,
    now,
  });

  function logDeliveryError(error: unknown) {
    logger.error({ err: error }, 'sandbox webhook delivery failed');
  }

  async function credentials(): Promise<SandboxCredentials> {
    const beneficiaries = await options.db
      .select({ id: sandboxBeneficiaries.id, walletId: sandboxBeneficiaries.walletId })
      .from(sandboxBeneficiaries)
      .where(isNull(sandboxBeneficiaries.deletedAt))
      .orderBy(asc(sandboxBeneficiaries.createdAt));
    const wallets = [...catalog.wallets.values()].sort((a, b) => a.accountIndex - b.accountIndex);
    return {
      baseUrl: options.baseUrl,
      totpSecret,
      wallets: wallets.map((w) => {
        const chain = catalog.blockchainOf(w);
        return {
          id: w.id,
          name: w.name,
          apiKey: catalog.apiKeys.get(w.id) ?? '',
          address: w.address,
          blockchain: chain.slug,
          network: w.network,
          assets: catalog.walletAssetsOf(w.id).map(({ entry, asset }) => ({
            id: entry.id,
            assetId: asset.id,
            symbol: asset.symbol,
            decimals: asset.decimals,
            address: asset.address,
          })),
          addresses: catalog.addressesOf(w.id).map((a) => ({
            id: a.id,
            address: a.address,
            type: a.type,
            name: a.name,
            disableAutoSweep: (a.configurations as { disableAutoSweep?: boolean }).disableAutoSweep === true,
          })),
          beneficiaries: beneficiaries.filter((b) => b.walletId === w.id).map((b) => ({ id: b.id })),
        };
      }),
    };
  }

  async function writeCredentials() {
    const creds = await credentials();
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    const file = path.join(options.dataDir, CREDENTIALS_FILE);
    // It holds API keys and the TOTP secret: owner-only.
    writeFileSync(file, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  await writeCredentials();

  /** Spec-only mode is per wallet; a request without a known key gets the sandbox-wide default. */
  function specOnlyFor(request: Request): boolean {
    const key = request.headers.get('x-api-key');
    const wallet = key ? catalog.walletByKeyHash.get(hashApiKey(key)) : undefined;
    return wallet ? faults.get(wallet.id).specOnly : (options.specOnly ?? false);
  }

  /** Waits out a delay fault; stop() may end the wait early so no call is left behind. */
  function holdFor(ms: number, call: () => Promise<Response>): Promise<Response> {
    let wake = () => {};
    const waited = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    const done = waited.then(call);
    const entry = { wake, done };
    delayed.add(entry);
    done.finally(() => delayed.delete(entry)).catch(() => {});
    return done;
  }

  /**
   * The answer to one request, or DROPPED when a fault control has it lost after execution. The rate limit
   * guards the service from outside callers (`handle`, behind /sandbox/v1); the console's own in-process
   * calls (`fetch`) are not counted.
   */
  async function respond(
    request: Request,
    { rateLimited }: { rateLimited: boolean },
  ): Promise<Response | typeof DROPPED> {
    const url = new URL(request.url);
    let pathname = url.pathname.replace(/\/+$/, '') || '/';
    if (pathname === '/sandbox' || pathname.startsWith('/sandbox/'))
      pathname = pathname.slice('/sandbox'.length) || '/';
    const method = request.method.toUpperCase();
    if (method === 'GET' && pathname === '/openapi.json') {
      return Response.json(openApiDocument(options.baseUrl));
    }
    const match = matchRoute(method, pathname);
    const unknownPath = () => errorResponse(404, `Cannot ${method} ${pathname}`);
    if (match === undefined) return unknownPath();
    if (match === 'method-not-allowed')
      return errorResponse(405, `Method ${method} is not allowed on ${pathname}`);
    // A service with the spec alone has no such path: same answer as any unknown one.
    if (isExtensionRoute(match.route) && specOnlyFor(request)) return unknownPath();
    let consumed: ConsumedFaults = { delayMs: 0, drop: false };
    let response: Response;
    try {
      const { wallet: keyWallet, keyHash } = authenticate(catalog, request);
      const rate = rateLimited ? await limiter.take(options.db, keyHash, rateLimit) : undefined;
      if (rate && !rate.allowed) {
        throw new HttpError(429, 'Too many requests: rate limit exceeded for this API key', {
          'retry-after': String(rate.retryAfterSeconds),
        });
      }
      const wallet = authorizeWallet(catalog, keyWallet, match.params.walletId);
      // Read before any delay: the body must not depend on a caller that may have gone away meanwhile.
      const body = match.route.body ? await readBody(request, match.route.body) : undefined;
      const execute = async () => {
        try {
          const result = await match.route.handle(context, {
            wallet,
            params: match.params,
            query: url.searchParams,
            body,
          } as never);
          return envelope(result);
        } catch (error) {
          return failure(error, method, pathname);
        }
      };
      if (match.route.movesMoney) consumed = faults.consume(wallet.id);
      // Held calls run whatever happens to the caller: the service acting after the client gave up.
      response = consumed.delayMs > 0 ? await holdFor(consumed.delayMs, execute) : await execute();
    } catch (error) {
      response = failure(error, method, pathname);
    }
    return consumed.drop ? DROPPED : response;
  }

  function failure(error: unknown, method: string, pathname: string): Response {
    if (error instanceof HttpError) return errorResponse(error.status, error.message, error.headers);
    logger.error({ err: error, method, path: pathname }, 'sandbox request failed');
    return errorResponse(500, 'Internal sandbox error');
  }

  /** Over HTTP a lost answer is what a gateway in front of the service would send: 502 and no JSON. */
  async function handleRequest(request: Request): Promise<Response> {
    const answer = await respond(request, { rateLimited: true });
    if (answer !== DROPPED) return answer;
    return new Response('Bad Gateway: the upstream connection closed before an answer was sent\n', {
      status: 502,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }

  /** In-process, a lost answer is what fetch does when the connection breaks: a TypeError. */
  async function fetchInProcess(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const { signal: _ignored, ...rest } = init ?? {};
    const request = input instanceof Request ? input : new Request(input, rest);
    if (signal?.aborted) throw signal.reason;
    const answer = respond(request, { rateLimited: false });
    // Like fetch, an aborted signal rejects the caller's promise; the request itself runs on.
    const outcome = signal ? await untilAborted(answer, signal) : await answer;
    if (outcome === DROPPED) {
      throw new TypeError('fetch failed', {
        cause: new Error('The connection closed before the answer arrived (sandbox fault dropNextAnswer)'),
      });
    }
    return outcome;
  }

  async function runTick(): Promise<boolean> {
    // Instances sharing one database run the chain once per block, not once each.
    const outcome = await withDatabaseLock(options.db, options.dbKind, TICK_LOCK_KEY, 'try', async () => {
      await mineBlock(core);
      await processPending(core);
      await deliverDue(core, inFlight);
    });
    if (!outcome.ran) {
      // Another instance mined: follow its block heights, which requests (confirmations) read from the catalog.
      for (const row of await options.db.select().from(sandboxBlockchains))
        catalog.blockchains.set(row.id, row);
    }
    return outcome.ran;
  }

  function tick(): Promise<boolean> {
    const next = chainLock.then(runTick);
    chainLock = next.catch(() => {});
    return next;
  }

  async function settleAll(maxBlocks = 200): Promise<number> {
    let blocks = 0;
    while (blocks < maxBlocks && (await countUnsettled(core)) > 0) {
      await tick();
      blocks += 1;
    }
    return blocks;
  }

  async function deliverWebhooks({ ignoreSchedule = false } = {}): Promise<number> {
    await Promise.allSettled([...background]);
    return deliverDue(core, inFlight, ignoreSchedule);
  }

  const sandbox: Sandbox = {
    handle: handleRequest,
    fetch: fetchInProcess as typeof fetch,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        tick().catch((error) => logger.error({ err: error }, 'sandbox tick failed'));
      }, options.blockTimeMs);
      timer.unref?.();
      // Computed now rather than on the first signature; opening the sandbox did not need it.
      setImmediate(() => {
        try {
          keys.prepare();
        } catch (error) {
          logger.error({ err: error }, 'sandbox key ring could not be prepared');
        }
      });
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      const held = [...delayed];
      for (const call of held) call.wake();
      await Promise.allSettled(held.map((call) => call.done));
      await chainLock;
      await Promise.allSettled([...background]);
    },
    tick,
    settleAll,
    deliverWebhooks,
    async drain() {
      await settleAll();
      for (let round = 0; round < options.webhookRetryMs.length + 2; round++) {
        await deliverWebhooks({ ignoreSchedule: true });
        if ((await countQueued(core)) === 0) break;
      }
    },
    credentials,
    totpCode: (atMs) => totpCode(totpSecret, atMs ?? now()),
  };
  return sandbox;
}
