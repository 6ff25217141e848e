import 'server-only';
// Which extension endpoints (beyond the spec's 23) a wallet's custody service answers. The console works with
// the spec alone; each extension it finds makes a page complete (the wallet's address list, the wallet-wide
// transaction list, balances, ...). Probed at connect, stored per wallet connection, refreshed in the
// background when old, and on the next use after an extension failed.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { type CustodyClient, CustodyError, isMissingEndpoint } from '@/lib/custody';
import { walletConnections } from '@/lib/db/schema';
import { logger } from './logger';
import { type ConsoleServices, currentServices } from './services';
import { findWalletConnection } from './wallets';

export const CAPABILITY_NAMES = [
  'walletAddresses',
  'walletTransactions',
  'transaction',
  'addressRules',
  'beneficiaries',
  'balances',
] as const;

export type CapabilityName = (typeof CAPABILITY_NAMES)[number];
export type Capabilities = Record<CapabilityName, boolean>;

export interface CapabilityInfo {
  /** What a person calls it. */
  label: string;
  /** The extension endpoint(s), as the admin page shows them. */
  endpoint: string;
  /** One plain sentence: what the console cannot do while the service lacks it. */
  without: string;
}

export const EXTENSION_CAPABILITIES: Record<CapabilityName, CapabilityInfo> = {
  walletAddresses: {
    label: 'Address list',
    endpoint: 'GET /v1/wallets/{walletId}/addresses',
    without:
      'Forms offer only the child addresses the console has seen in webhooks and its own requests, plus any address id typed by hand; the addresses page cannot list every address.',
  },
  walletTransactions: {
    label: 'Wallet-wide transactions',
    endpoint: 'GET /v1/wallets/{walletId}/transactions',
    without:
      'The transactions page, CSV export and search read child addresses one by one and cannot show master-wallet transactions.',
  },
  transaction: {
    label: 'One transaction by id',
    endpoint: 'GET /v1/wallets/{walletId}/transactions/{id}',
    without:
      'A transaction link whose row is not on the loaded page is looked up address by address, and only among child addresses.',
  },
  addressRules: {
    label: 'Auto-settlement rules of an address',
    endpoint: 'GET /v1/wallets/{walletId}/addresses/{addressId}/auto-settlements/rules',
    without: 'Existing auto-settlement rules cannot be listed; new rules can still be created.',
  },
  beneficiaries: {
    label: 'Beneficiary list',
    endpoint: 'GET /v1/wallets/{walletId}/beneficiaries',
    without: 'Beneficiaries cannot be listed; deleting one needs its id.',
  },
  balances: {
    label: 'Balances',
    endpoint: 'GET /v1/wallets/{walletId}/balances and …/addresses/{addressId}/balances',
    without:
      'Forms cannot show balances or check amounts against them before a request; the service still refuses what it cannot pay.',
  },
};

/** Stored results older than this are refreshed in the background on the next read. */
export const CAPABILITY_MAX_AGE_MS = 10 * 60 * 1000;
/** After a probe that learned nothing (service unreachable, key refused), wait this long before the next. */
export const FAILED_PROBE_PAUSE_MS = 60 * 1000;
/**
 * An extension that failed (missing in use, gone since the last probe, or not answering) is probed again on the
 * next use, and while it keeps failing at most this often: a short outage must not leave the console saying
 * for the full CAPABILITY_MAX_AGE_MS that the service lacks an extension it has.
 */
export const RECHECK_PAUSE_MS = 15 * 1000;
/** A probe is a handful of cheap reads: short timeout, one retry, so a slow service cannot hold a page. */
const PROBE_TIMEOUT_MS = 5_000;

function noCapabilities(): Capabilities {
  return Object.fromEntries(CAPABILITY_NAMES.map((n) => [n, false])) as Capabilities;
}

/** A stored jsonb value as Capabilities: anything missing or not `true` counts as absent. */
export function toCapabilities(stored: Record<string, unknown> | null | undefined): Capabilities {
  const out = noCapabilities();
  if (stored) for (const name of CAPABILITY_NAMES) out[name] = stored[name] === true;
  return out;
}

/** A 404 that is the service's own "not found" for the given resource (e.g. "Transaction not found"). */
function isRecordNotFound(error: unknown, resource: RegExp): boolean {
  return (
    error instanceof CustodyError &&
    error.kind === 'http' &&
    error.status === 404 &&
    !isMissingEndpoint(error) &&
    resource.test(error.message)
  );
}

type ProbeOutcome = 'present' | 'absent' | 'unknown';

/**
 * What one failed probe call tells. Rate limits, server errors, timeouts and refused keys say nothing about
 * the endpoint ('unknown'); every other answer that is not a success counts as absent, including a 2xx
 * whose body the console cannot read (it could not use the endpoint either).
 */
function outcomeOf(error: unknown): ProbeOutcome {
  if (!(error instanceof CustodyError)) return 'unknown';
  if (error.kind === 'timeout' || error.kind === 'network') return 'unknown';
  if (error.kind === 'malformed') return 'absent';
  if (error.status === 401 || error.status === 403 || error.retryable) return 'unknown';
  return 'absent';
}

async function probe(call: () => Promise<unknown>, recordMissing?: RegExp): Promise<ProbeOutcome> {
  try {
    await call();
    return 'present';
  } catch (error) {
    // The endpoint looked the record up and did not find it: it exists.
    if (recordMissing && isRecordNotFound(error, recordMissing)) return 'present';
    return outcomeOf(error);
  }
}

const TRANSACTION_NOT_FOUND = /\btransaction\b.*\bnot found\b/i;
const ADDRESS_NOT_FOUND = /\baddress\b.*\bnot found\b/i;

/**
 * One call per extension, with the wallet's key. List endpoints are read with `limit=1`. The by-id reads use
 * ids that cannot exist (random UUIDs): the service's "Transaction not found" proves the route is there,
 * while "Cannot GET", 405 or any other 404 wording counts as absent. Address rules are read for a real
 * address when the address list gave one (then only a success counts), else for a random id.
 */
async function probeWithClient(
  client: CustodyClient,
  walletId: string,
): Promise<Record<CapabilityName, ProbeOutcome>> {
  let firstAddressId: string | undefined;
  const [walletAddresses, walletTransactions, transaction, beneficiaries, balancesOutcome] =
    await Promise.all([
      probe(async () => {
        const page = await client.wallets.listAddresses({ walletId, type: 'INTERNAL', limit: 1 });
        firstAddressId = page.data[0]?.id;
      }),
      probe(() => client.wallets.listTransactions({ walletId, limit: 1 })),
      probe(() => client.wallets.getTransaction({ walletId, id: randomUUID() }), TRANSACTION_NOT_FOUND),
      probe(() => client.beneficiaries.list({ walletId, limit: 1 })),
      probe(() => client.wallets.balances({ walletId })),
    ]);
  const addressRules = firstAddressId
    ? await probe(() => client.addressRules.list({ walletId, addressId: firstAddressId as string }))
    : await probe(() => client.addressRules.list({ walletId, addressId: randomUUID() }), ADDRESS_NOT_FOUND);
  return {
    walletAddresses,
    walletTransactions,
    transaction,
    addressRules,
    beneficiaries,
    balances: balancesOutcome,
  };
}

const PROBES = Symbol.for('custody-console.capability-probes');

/** Extensions whose stored value came from a failure rather than an answer: probed again when due. */
interface Recheck {
  names: Set<CapabilityName>;
  /** The next use from this time probes again. */
  dueAt: number;
  /** The first failure: after CAPABILITY_MAX_AGE_MS of failing, the usual schedule takes over again. */
  since: number;
}

type Holder = {
  [PROBES]?: {
    inFlight: Map<string, Promise<Capabilities>>;
    /** Until when no probe starts for a wallet whose last probe learned nothing. */
    pausedUntil: Map<string, number>;
    recheck: Map<string, Recheck>;
  };
};
function probeState() {
  const holder = globalThis as Holder;
  holder[PROBES] ??= { inFlight: new Map(), pausedUntil: new Map(), recheck: new Map() };
  return holder[PROBES];
}

/** Marks extensions of a wallet to be probed again from `dueAt` (joining any failure already recorded). */
function recheckLater(walletId: string, names: Iterable<CapabilityName>, dueAt: number) {
  const state = probeState();
  const known = state.recheck.get(walletId);
  state.recheck.set(walletId, {
    names: new Set([...(known?.names ?? []), ...names]),
    dueAt,
    since: known?.since ?? Date.now(),
  });
}

/** A probe learned nothing: pause, then probe again on the next use (not only once the result is old). */
function probeFailed(walletId: string) {
  const until = Date.now() + FAILED_PROBE_PAUSE_MS;
  probeState().pausedUntil.set(walletId, until);
  recheckLater(walletId, CAPABILITY_NAMES, until);
}

async function runProbe(services: ConsoleServices, walletId: string): Promise<Capabilities> {
  const db = services.database.db;
  const row = await findWalletConnection(walletId, db);
  const client = await services.custody.clientFor(walletId, {
    direct: true,
    timeoutMs: PROBE_TIMEOUT_MS,
    budgetMs: PROBE_TIMEOUT_MS,
    retries: 1,
  });
  if (!row || !client) return noCapabilities();
  const outcomes = await probeWithClient(client, walletId);
  const previous = row.capabilities ? toCapabilities(row.capabilities) : null;
  const learned = CAPABILITY_NAMES.filter((n) => outcomes[n] !== 'unknown');
  if (learned.length === 0) {
    // Nothing answered: keep what is stored and try again later rather than forget working extensions.
    probeFailed(walletId);
    logger.warn({ walletId }, 'capability probe learned nothing; the custody service did not answer');
    return previous ?? noCapabilities();
  }
  const state = probeState();
  state.pausedUntil.delete(walletId);
  // An endpoint that could not be probed this time keeps its last known value; never probed means absent.
  const result = noCapabilities();
  for (const name of CAPABILITY_NAMES) {
    const outcome = outcomes[name];
    result[name] = outcome === 'unknown' ? (previous?.[name] ?? false) : outcome === 'present';
  }
  // Still to probe again soon: what did not answer, what was there last time and is gone now (an outage looks
  // like this), and what failed before and has not answered present since.
  const failing = new Set<CapabilityName>(state.recheck.get(walletId)?.names ?? []);
  for (const name of CAPABILITY_NAMES) {
    if (outcomes[name] === 'present') failing.delete(name);
    else if (outcomes[name] === 'unknown' || previous?.[name] === true) failing.add(name);
  }
  const since = state.recheck.get(walletId)?.since ?? Date.now();
  if (failing.size > 0 && Date.now() - since < CAPABILITY_MAX_AGE_MS)
    state.recheck.set(walletId, { names: failing, dueAt: Date.now() + RECHECK_PAUSE_MS, since });
  else state.recheck.delete(walletId);
  await db
    .update(walletConnections)
    .set({ capabilities: result, capabilitiesCheckedAt: new Date() })
    .where(eq(walletConnections.id, walletId));
  logger.info({ walletId, capabilities: result }, 'custody extensions probed');
  return result;
}

/**
 * Probes the wallet's service now (joining a probe already running for the wallet), stores the result in
 * `wallet_connections.capabilities` and returns it. Never throws for an unreachable service: every
 * extension then counts as absent unless an earlier probe found it.
 */
export function probeCapabilities(walletId: string, services?: ConsoleServices): Promise<Capabilities> {
  const state = probeState();
  const running = state.inFlight.get(walletId);
  if (running) return running;
  const started = (async () => runProbe(services ?? (await currentServices()), walletId))()
    .catch((error: unknown) => {
      probeFailed(walletId);
      logger.warn({ walletId, err: error }, 'capability probe failed');
      return noCapabilities();
    })
    .finally(() => state.inFlight.delete(walletId));
  state.inFlight.set(walletId, started);
  return started;
}

/**
 * The stored capabilities of a wallet. Older than CAPABILITY_MAX_AGE_MS, or holding an extension that failed
 * since (missing in use, gone or silent at the last probe): returned as stored while a probe runs in the
 * background, so the next use after a failure probes again rather than one ten minutes later. Never probed:
 * probed now (a page waits at most the probe's short timeout once), all false when that probe fails or a recent
 * one failed.
 */
export async function capabilitiesOf(walletId: string, services?: ConsoleServices): Promise<Capabilities> {
  const runtime = services ?? (await currentServices());
  const row = await findWalletConnection(walletId, runtime.database.db);
  if (!row) return noCapabilities();
  const state = probeState();
  const now = Date.now();
  const pausing = (state.pausedUntil.get(walletId) ?? 0) > now;
  if (!row.capabilities || !row.capabilitiesCheckedAt) {
    if (pausing) return noCapabilities();
    return probeCapabilities(walletId, runtime);
  }
  const stale = now - row.capabilitiesCheckedAt.getTime() > CAPABILITY_MAX_AGE_MS;
  const recheck = state.recheck.get(walletId);
  const recheckDue = recheck !== undefined && now >= recheck.dueAt;
  if ((stale || recheckDue) && !pausing) void probeCapabilities(walletId, runtime);
  return toCapabilities(row.capabilities);
}

/**
 * Records that an extension answered "no such endpoint" in use (the service changed since the probe, or its
 * extension endpoints are down for a while). Only that one name changes; the next use probes again and finds
 * it back as soon as the service answers for it.
 */
export async function markCapabilityMissing(
  walletId: string,
  name: CapabilityName,
  services?: ConsoleServices,
): Promise<void> {
  const { db } = (services ?? (await currentServices())).database;
  await db
    .update(walletConnections)
    .set({
      capabilities: sql`coalesce(${walletConnections.capabilities}, '{}'::jsonb) || jsonb_build_object(${name}::text, false)`,
    })
    .where(eq(walletConnections.id, walletId));
  // It answered before: this may be an outage of the extension rather than its end, so the next use asks again.
  recheckLater(walletId, [name], Date.now());
  logger.info({ walletId, capability: name }, 'custody extension missing; falling back to the spec');
}

/**
 * Runs `extension` when the service has the capability, `fallback` otherwise. An extension that answers
 * "no such endpoint" anyway is marked missing and the fallback runs, so a page never fails for it.
 */
export async function viaExtension<T>(
  walletId: string,
  name: CapabilityName,
  extension: () => Promise<T>,
  fallback: () => Promise<T>,
  capabilities?: Capabilities,
): Promise<T> {
  const has = (capabilities ?? (await capabilitiesOf(walletId)))[name];
  if (!has) return fallback();
  try {
    return await extension();
  } catch (error) {
    if (!isMissingEndpoint(error)) throw error;
    await markCapabilityMissing(walletId, name).catch((err: unknown) =>
      logger.warn({ walletId, err }, 'could not record a missing extension'),
    );
    return fallback();
  }
}
