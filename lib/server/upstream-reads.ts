import 'server-only';
// One upstream request per thing read: identical custody GETs in flight share one request, and the reads a
// page, its route handlers and the approval engine all repeat within seconds (the wallet, #4, its balances,
// its address and beneficiary lists) are kept briefly. Sits under every custody client as the `fetch` it is handed.
import { createHash } from 'node:crypto';
import type { FetchLike } from '@/lib/custody';
import { untilAborted } from '@/lib/custody/abort';

/** How long a wallet or balances answer is reused; short, so a balance is never stale for long. */
const READ_CACHE_TTL_MS = 3_000;

export interface SharedReadsOptions {
  ttlMs?: number;
  now?: () => number;
}

export interface SharedReads {
  fetch: FetchLike;
  /** Drops what is kept about one wallet (its answers changed: a webhook arrived). */
  forgetWallet(walletId: string): void;
}

/** An answer read to its end, so every caller gets a fresh Response with the same bytes. */
interface Buffered {
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  body: ArrayBuffer;
}

interface InFlight {
  answer: Promise<Buffered>;
  controller: AbortController;
  waiters: number;
  settled: boolean;
}

// `/v1/wallets/{id}` (#4) and the balances extension of the wallet or one of its addresses, read without a
// query; and the lists a form and its review read again at each step (child and whitelisted addresses,
// beneficiaries), with their paging and filters. Never transactions: their list is how an unknown outcome
// is reconciled, and it must be read fresh.
const CACHEABLE_EXACT = /\/v1\/wallets\/[^/]+(?:\/balances|\/addresses\/[^/]+\/balances)?$/;
const CACHEABLE_LIST = /\/v1\/wallets\/[^/]+\/(?:addresses|beneficiaries)$/;

// Calls that are sent with POST but change nothing (estimates, contract reads): they keep what is kept.
const READ_ONLY_POST = /\/(?:network-fee|contracts\/read)$/;

/** Reads that reveal a secret are neither shared nor kept: each reveal is its own audited call. */
function revealsSecret(url: URL): boolean {
  return url.searchParams.has('showPrivateKey');
}

function isCacheable(url: URL): boolean {
  if (revealsSecret(url)) return false;
  if (CACHEABLE_LIST.test(url.pathname)) return true;
  return url.search === '' && CACHEABLE_EXACT.test(url.pathname);
}

/** The wallet id of a custody path, for forgetting by wallet. */
function walletIdOf(url: URL): string | undefined {
  const match = /\/v1\/wallets\/([^/?]+)/.exec(url.pathname);
  return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
}

/** Keys are hashed so the maps never hold an API key in the clear. */
function keyOf(init: RequestInit): string {
  const apiKey = new Headers(init.headers).get('x-api-key') ?? '';
  return createHash('sha256').update(apiKey).digest('base64url');
}

function toResponse(buffered: Buffered): Response {
  // Response copies the bytes of a BufferSource, so callers never share a body.
  return new Response(buffered.body.byteLength === 0 ? null : buffered.body, {
    status: buffered.status,
    statusText: buffered.statusText,
    headers: buffered.headers,
  });
}

export function createSharedReads(upstream: FetchLike, options: SharedReadsOptions = {}): SharedReads {
  const ttlMs = options.ttlMs ?? READ_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  const inFlight = new Map<string, InFlight>();
  const cache = new Map<string, { expiresAt: number; answer: Buffered; walletId: string | undefined }>();
  // Bumped by every write and every forget: a read that started before one must not fill the cache after it.
  const generations = new Map<string, number>();
  let walletGeneration = 0;

  const generationOf = (apiKeyHash: string) => `${generations.get(apiKeyHash) ?? 0}:${walletGeneration}`;

  function forgetKey(apiKeyHash: string) {
    generations.set(apiKeyHash, (generations.get(apiKeyHash) ?? 0) + 1);
    for (const [entryKey] of cache) if (entryKey.startsWith(`${apiKeyHash} `)) cache.delete(entryKey);
    for (const [entryKey] of inFlight) if (entryKey.startsWith(`${apiKeyHash} `)) inFlight.delete(entryKey);
  }

  function forgetWallet(walletId: string) {
    walletGeneration++;
    for (const [entryKey, entry] of cache) if (entry.walletId === walletId) cache.delete(entryKey);
    for (const [entryKey] of inFlight) {
      const url = entryKey.slice(entryKey.indexOf(' ') + 1);
      if (walletIdOf(new URL(url)) === walletId) inFlight.delete(entryKey);
    }
  }

  function pruneExpired(at: number) {
    for (const [entryKey, entry] of cache) if (entry.expiresAt <= at) cache.delete(entryKey);
  }

  function start(entryKey: string, input: string, init: RequestInit, keep: boolean, apiKeyHash: string) {
    const controller = new AbortController();
    const generation = generationOf(apiKeyHash);
    const entry: InFlight = {
      controller,
      waiters: 0,
      settled: false,
      answer: (async () => {
        const response = await upstream(input, { ...init, signal: controller.signal });
        const buffered: Buffered = {
          status: response.status,
          statusText: response.statusText,
          headers: [...response.headers],
          body: await response.arrayBuffer(),
        };
        // Only successful answers are kept: an error must be asked again, not remembered.
        if (keep && response.ok && generation === generationOf(apiKeyHash)) {
          const at = now();
          pruneExpired(at);
          cache.set(entryKey, {
            expiresAt: at + ttlMs,
            answer: buffered,
            walletId: walletIdOf(new URL(input)),
          });
        }
        return buffered;
      })(),
    };
    entry.answer
      .finally(() => {
        entry.settled = true;
        if (inFlight.get(entryKey) === entry) inFlight.delete(entryKey);
      })
      .catch(() => {});
    inFlight.set(entryKey, entry);
    return entry;
  }

  async function join(entryKey: string, entry: InFlight, signal: AbortSignal | null | undefined) {
    entry.waiters++;
    try {
      return toResponse(await untilAborted(entry.answer, signal));
    } finally {
      entry.waiters--;
      // Every caller gave up (each has its own timeout): stop the upstream request too.
      if (entry.waiters === 0 && !entry.settled) {
        entry.controller.abort();
        if (inFlight.get(entryKey) === entry) inFlight.delete(entryKey);
      }
    }
  }

  const fetch: FetchLike = async (input, init) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const apiKeyHash = keyOf(init);
    if (method !== 'GET') {
      // A write through this key may change anything it reads (settlement switch, balances after a payout).
      if (!(method === 'POST' && READ_ONLY_POST.test(new URL(input).pathname))) forgetKey(apiKeyHash);
      return upstream(input, init);
    }
    const url = new URL(input);
    if (revealsSecret(url)) return upstream(input, init);
    const entryKey = `${apiKeyHash} ${url.href}`;
    const keep = isCacheable(url);
    if (keep) {
      const cached = cache.get(entryKey);
      if (cached && cached.expiresAt > now()) return toResponse(cached.answer);
    }
    const entry = inFlight.get(entryKey) ?? start(entryKey, input, init, keep, apiKeyHash);
    return join(entryKey, entry, init.signal);
  };

  return { fetch, forgetWallet };
}

const SHARED = Symbol.for('custody-console.shared-reads');
type Holder = { [SHARED]?: WeakMap<FetchLike, SharedReads> };

/**
 * The process-wide shared reads over one upstream fetch (the real service's or the sandbox's), built once
 * so pages, route handlers, actions and the approval engine share it. A custody webhook means the wallet
 * changed: what is kept about it is dropped before the browsers hear of it and read again.
 */
export function sharedReadsFor(upstream: FetchLike): SharedReads {
  const holder = globalThis as Holder;
  holder[SHARED] ??= new WeakMap();
  let shared = holder[SHARED].get(upstream);
  if (!shared) {
    const created = createSharedReads(upstream);
    shared = created;
    holder[SHARED].set(upstream, created);
    import('./events')
      .then(({ onCustodyEvent }) => onCustodyEvent((event) => created.forgetWallet(event.walletId)))
      .catch(() => {
        // Without the bus the short lifetime alone bounds how stale a kept answer can be.
      });
  }
  return shared;
}
