import 'server-only';
// The embedded custody service (DESIGN.md, "The embedded sandbox"): the spec's API over the console's database.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { asc, eq, isNull } from 'drizzle-orm';
import type { DatabaseHandle } from '@/lib/db/connection';
import { runMigrations } from '@/lib/db/connection';
import type { AnyDb } from '@/lib/db/types';
import { countUnsettled, mineBlock, processPending } from './chain';
import { Catalog, HttpError, type Logger, loadKeyRing, type SealedSecrets } from './context';
import { SandboxCore } from './core';
import { sandboxBeneficiaries, sandboxMeta } from './db/schema';
import { totpCode } from './keys';
import { openApiDocument } from './openapi';
import { Operations } from './operations';
import {
  authenticate,
  authorizeWallet,
  envelope,
  errorResponse,
  matchRoute,
  RateLimiter,
  readBody,
} from './router';
import { isSeeded, seedSandbox } from './seed';
import { countQueued, deliverDue } from './webhooks';

export { WEBHOOK_EVENTS } from './core';
export { signWebhookBody } from './webhooks';

export interface SandboxOptions {
  db: AnyDb;
  dbKind: 'pglite' | 'postgres';
  /** 32 bytes: seals the mnemonic, the TOTP secret and the API keys at rest. */
  encryptionKey: Buffer;
  /** SANDBOX_SEED: the shape of the seeded data (names, amounts, history) follows it. */
  seed: string;
  /** SANDBOX_BLOCK_TIME_MS: one block per chain every this many milliseconds once started. */
  blockTimeMs: number;
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
  /** Per-key rate limit; default 600 requests per 10 s. */
  rateLimit?: { limit: number; windowMs: number };
  /** Confirmations before a transaction settles; default 3. */
  confirmations?: number;
  logger?: Logger;
  /** Default: lib/sandbox/db/migrations under the working directory. */
  migrationsFolder?: string;
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
  /** Answers one HTTP request; the path may start with /sandbox or not. */
  handle(request: Request): Promise<Response>;
  /** A fetch bound to handle(), for createCustodyClient({ fetch }). */
  fetch: typeof fetch;
  /** Starts the block timer (one tick per blockTimeMs). */
  start(): void;
  /** Stops the timer and waits for the running tick and deliveries. */
  stop(): Promise<void>;
  /** Mines one block: inclusion, confirmations, settlement, sweeps, then due webhook deliveries. */
  tick(): Promise<void>;
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

export const CREDENTIALS_FILE = 'sandbox-credentials.json';

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
  await runMigrations(
    handle,
    options.migrationsFolder ?? path.join(process.cwd(), 'lib/sandbox/db/migrations'),
    '__sandbox_migrations',
  );
  if (!(await isSeeded(options.db))) {
    await seedSandbox({
      db: options.db,
      seed: options.seed,
      encryptionKey: options.encryptionKey,
      webhookUrl: options.webhookUrl,
      now: now(),
      confirmations: options.confirmations ?? 3,
    });
  }
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
  const ops = new Operations(core);
  const limiter = new RateLimiter(
    options.rateLimit?.limit ?? 600,
    options.rateLimit?.windowMs ?? 10_000,
    now,
  );

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

  async function handleRequest(request: Request): Promise<Response> {
    const url = new URL(request.url);
    let pathname = url.pathname.replace(/\/+$/, '') || '/';
    if (pathname === '/sandbox' || pathname.startsWith('/sandbox/'))
      pathname = pathname.slice('/sandbox'.length) || '/';
    const method = request.method.toUpperCase();
    if (method === 'GET' && pathname === '/openapi.json') {
      return Response.json(openApiDocument(options.baseUrl));
    }
    const match = matchRoute(method, pathname);
    if (match === undefined) return errorResponse(404, `Cannot ${method} ${pathname}`);
    if (match === 'method-not-allowed')
      return errorResponse(405, `Method ${method} is not allowed on ${pathname}`);
    try {
      const { wallet: keyWallet, keyHash } = authenticate(catalog, request);
      const retryAfter = limiter.hit(keyHash);
      if (retryAfter !== undefined) {
        throw new HttpError(429, 'Too many requests: rate limit exceeded for this API key', {
          'retry-after': String(retryAfter),
        });
      }
      const wallet = authorizeWallet(catalog, keyWallet, match.params.walletId);
      const body = match.route.body ? await readBody(request, match.route.body) : undefined;
      const handler = match.route.handler(ops);
      const result = await handler({ wallet, params: match.params, query: url.searchParams, body } as never);
      return envelope(result);
    } catch (error) {
      if (error instanceof HttpError) return errorResponse(error.status, error.message, error.headers);
      logger.error({ err: error, method, path: pathname }, 'sandbox request failed');
      return errorResponse(500, 'Internal sandbox error');
    }
  }

  async function runTick() {
    await mineBlock(core);
    await processPending(core);
    await deliverDue(core, inFlight);
  }

  function tick(): Promise<void> {
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
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) =>
      handleRequest(input instanceof Request ? input : new Request(input, init))) as typeof fetch,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        tick().catch((error) => logger.error({ err: error }, 'sandbox tick failed'));
      }, options.blockTimeMs);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
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
