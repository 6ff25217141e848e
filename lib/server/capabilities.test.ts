// Capability probing against the embedded sandbox, with its extensions and as a service with the spec's
// endpoints only (a fetch that answers "Cannot GET" for the extension paths), and the console's fallbacks in
// that mode: form addresses from what the console has seen, transactions, CSV and search per address.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CustodyClient, CustodyError, createCustodyClient, isMissingEndpoint } from '@/lib/custody';
import type { Transaction } from '@/lib/custody/schemas';
import { operationRequests, walletConnections, webhookEvents } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { DEFAULT_TRANSACTION_SEARCH, filtersOf } from '@/lib/validation/transactions';
import { createTestDatabase, type TestDatabase } from '@/test/db';

const {
  CAPABILITY_NAMES,
  CAPABILITY_MAX_AGE_MS,
  FAILED_PROBE_PAUSE_MS,
  RECHECK_PAUSE_MS,
  capabilitiesOf,
  markCapabilityMissing,
  probeCapabilities,
  toCapabilities,
} = await import('./capabilities');
const { checkChildAddress, childAddressesFor, knownAddressIds } = await import('./wallet-addresses');
const { getTransaction, listTransactionPage, openTransactionCsvStream, withTransactionSource } = await import(
  './transactions'
);
const { searchConsole } = await import('./search');
const { sharedReadsFor } = await import('./upstream-reads');
const { forgetWithdrawFormContext, withdrawFormContext } = await import('./approvals');

/** The extension paths of lib/sandbox/handlers: a spec-only service does not have them. */
const EXTENSION_PATHS = [
  /^\/v1\/wallets\/[^/]+\/addresses$/,
  /^\/v1\/wallets\/[^/]+\/transactions$/,
  /^\/v1\/wallets\/[^/]+\/transactions\/(?!retry$)[^/]+$/,
  /^\/v1\/wallets\/[^/]+\/addresses\/[^/]+\/auto-settlements\/rules$/,
  /^\/v1\/wallets\/[^/]+\/beneficiaries$/,
  /^\/v1\/wallets\/[^/]+\/balances$/,
  /^\/v1\/wallets\/[^/]+\/addresses\/[^/]+\/balances$/,
];

let testDb: TestDatabase;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let wallet: SandboxCredentials['wallets'][number];
const dataDir = mkdtempSync(path.join(tmpdir(), 'capabilities-'));
/** How the service behaves: with its extensions, with the spec alone, or not answering at all. */
let mode: 'full' | 'spec' | 'down' = 'full';
const seen: string[] = [];

/** Changes how the service behaves; answers the console kept briefly from before are dropped. */
function setMode(next: typeof mode) {
  mode = next;
  for (const w of creds?.wallets ?? []) {
    sharedReadsFor(serviceFetch).forgetWallet(w.id);
    forgetWithdrawFormContext(w.id);
  }
}

const serviceFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const request = input instanceof Request ? input : new Request(input, init);
  const pathname = new URL(request.url).pathname.replace(/^\/sandbox/, '');
  seen.push(`${request.method} ${pathname}`);
  if (mode === 'down') throw new TypeError('fetch failed');
  if (mode === 'spec' && request.method === 'GET' && EXTENSION_PATHS.some((p) => p.test(pathname)))
    return Response.json(
      { statusCode: 404, message: `Cannot GET ${pathname}`, error: 'Not Found' },
      { status: 404 },
    );
  return sandbox.fetch(request);
}) as typeof fetch;

function client(): CustodyClient {
  return createCustodyClient({
    baseUrl: 'http://sandbox.internal/sandbox',
    fetch: serviceFetch,
    apiKey: wallet.apiKey,
    retries: 0,
  });
}

async function stored(walletId: string) {
  const [row] = await testDb.db.select().from(walletConnections).where(eq(walletConnections.id, walletId));
  return row;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  const encryptionKey = Buffer.alloc(32, 5);
  sandbox = await createSandbox({
    db: testDb.db,
    dbKind: testDb.handle.kind,
    encryptionKey,
    seed: 'capabilities-test',
    blockTimeMs: 1000,
    webhookUrl: 'http://127.0.0.1:9/hooks',
    webhookRetryMs: [],
    signatureHeader: 'x-blockradar-signature',
    baseUrl: 'http://sandbox.internal/sandbox',
    dataDir,
    fetch: async () => new Response('ok'),
  });
  const runtime = {
    config: { encryptionKey, sandboxMode: true, env: {} },
    database: testDb.handle,
    sandbox: { fetch: serviceFetch, credentials: () => sandbox.credentials() },
  };
  const { connectSandboxWallets, createCustodyConnections } = await import('./wallets');
  const services = { ...runtime, custody: createCustodyConnections(runtime as never) };
  (await import('./services')).provideServices(services as never);
  await connectSandboxWallets(services as never);
  creds = await sandbox.credentials();
  wallet = creds.wallets[0]!;
  // Connecting starts a probe per wallet; let those finish before the tests change the service.
  await Promise.all(creds.wallets.map((w) => probeCapabilities(w.id)));
});

afterAll(async () => {
  await sandbox?.stop();
  await testDb?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  setMode('full');
  seen.length = 0;
});

function customError(status: number, message: string) {
  return new CustodyError({ kind: 'http', status, message, method: 'GET', path: '/v1/x' });
}

describe('isMissingEndpoint', () => {
  it('tells a missing endpoint from a missing record', () => {
    expect(isMissingEndpoint(customError(404, 'Cannot GET /v1/wallets/w/transactions'))).toBe(true);
    expect(isMissingEndpoint(customError(405, 'Method GET is not allowed on /v1/x'))).toBe(true);
    expect(isMissingEndpoint(customError(404, 'Not found at the custody service'))).toBe(true);
    expect(isMissingEndpoint(customError(404, 'No route here'))).toBe(true);
    expect(isMissingEndpoint(customError(404, 'Transaction not found'))).toBe(false);
    expect(isMissingEndpoint(customError(500, 'Internal error'))).toBe(false);
    expect(isMissingEndpoint(new Error('Cannot GET /v1/x'))).toBe(false);
  });
});

describe('probeCapabilities', () => {
  it('finds every extension on the sandbox and stores the result', async () => {
    const result = await probeCapabilities(wallet.id);
    expect(result).toEqual(Object.fromEntries(CAPABILITY_NAMES.map((n) => [n, true])));
    const row = await stored(wallet.id);
    expect(toCapabilities(row?.capabilities)).toEqual(result);
    expect(row?.capabilitiesCheckedAt).toBeInstanceOf(Date);
  });

  it('finds none on a service with the spec alone, and never sends the key anywhere but the service', async () => {
    setMode('spec');
    const result = await probeCapabilities(wallet.id);
    expect(Object.values(result).every((v) => v === false)).toBe(true);
    expect(toCapabilities((await stored(wallet.id))?.capabilities)).toEqual(result);
    // One call per extension (address rules read once, for a random address).
    expect(seen.filter((s) => s.startsWith('GET'))).toHaveLength(CAPABILITY_NAMES.length);
  });

  it('keeps what it knew when the service does not answer at all', async () => {
    await probeCapabilities(wallet.id);
    const before = await stored(wallet.id);
    setMode('down');
    const result = await probeCapabilities(wallet.id);
    expect(Object.values(result).every((v) => v === true)).toBe(true);
    expect((await stored(wallet.id))?.capabilitiesCheckedAt).toEqual(before?.capabilitiesCheckedAt);
  });

  it('runs one probe per wallet at a time', async () => {
    const [a, b] = [probeCapabilities(wallet.id), probeCapabilities(wallet.id)];
    expect(a).toBe(b);
    await a;
    expect(seen.filter((s) => s.endsWith(`/v1/wallets/${wallet.id}/transactions`))).toHaveLength(1);
  });
});

describe('capabilitiesOf', () => {
  it('answers the stored value at once and refreshes it in the background when old', async () => {
    setMode('spec');
    await probeCapabilities(wallet.id);
    await testDb.db
      .update(walletConnections)
      .set({ capabilitiesCheckedAt: new Date(Date.now() - 11 * 60 * 1000) })
      .where(eq(walletConnections.id, wallet.id));
    setMode('full');
    const now = await capabilitiesOf(wallet.id);
    expect(now.walletTransactions).toBe(false);
    await vi.waitFor(async () =>
      expect(toCapabilities((await stored(wallet.id))?.capabilities).walletTransactions).toBe(true),
    );
    expect((await capabilitiesOf(wallet.id)).walletTransactions).toBe(true);
  });

  it('answers all false for a wallet never probed whose service does not answer', async () => {
    const other = creds.wallets[1]!;
    await testDb.db
      .update(walletConnections)
      .set({ capabilities: null, capabilitiesCheckedAt: null })
      .where(eq(walletConnections.id, other.id));
    setMode('down');
    const result = await capabilitiesOf(other.id);
    expect(Object.values(result).every((v) => v === false)).toBe(true);
    expect((await stored(other.id))?.capabilities).toBeNull();
  });

  it('markCapabilityMissing turns one capability off and leaves the others', async () => {
    await probeCapabilities(wallet.id);
    await markCapabilityMissing(wallet.id, 'beneficiaries');
    const result = await capabilitiesOf(wallet.id);
    expect(result.beneficiaries).toBe(false);
    expect(result.walletTransactions).toBe(true);
  });
});

describe('after a failure', () => {
  /** The probes sent since `from`: one wallet-wide transaction list read each. */
  const probesSince = (from: number) =>
    seen.slice(from).filter((s) => s === `GET /v1/wallets/${wallet.id}/transactions`).length;
  const storedTransactions = async () =>
    toCapabilities((await stored(wallet.id))?.capabilities).walletTransactions;
  /** When the test started, by the faked clock (vi.waitFor moves it on too, by its polling interval). */
  let start = Date.now();
  const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);

  beforeEach(async () => {
    // Only the clock is faked: the database and the sandbox keep their own timers.
    vi.useFakeTimers({ toFake: ['Date'] });
    start = Date.now();
    await probeCapabilities(wallet.id);
    expect(await storedTransactions()).toBe(true);
    seen.length = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('probes again on the next use after an extension failed in use, and finds it back after the outage', async () => {
    // The extension endpoints go down: the transactions page falls back and marks the extension missing.
    setMode('spec');
    const c = client();
    const filters = filtersOf({ ...DEFAULT_TRANSACTION_SEARCH, limit: 5 });
    const page = await withTransactionSource(c, wallet.id, (source) =>
      listTransactionPage(c, wallet.id, filters, source),
    );
    expect(page.scope).toBe('child-addresses');
    expect(await storedTransactions()).toBe(false);
    // The use right after the failure probed again (the service still lacks it).
    await vi.waitFor(() => expect(probesSince(0)).toBeGreaterThanOrEqual(2));
    await probeCapabilities(wallet.id);
    // While it keeps failing, uses within the short pause do not probe again: bounded work.
    const before = seen.length;
    advance(RECHECK_PAUSE_MS / 3);
    await capabilitiesOf(wallet.id);
    expect(probesSince(before)).toBe(0);
    // Still down at the next probe: it stays on the list to ask again.
    advance(RECHECK_PAUSE_MS);
    await capabilitiesOf(wallet.id);
    await vi.waitFor(() => expect(probesSince(before)).toBe(1));
    await probeCapabilities(wallet.id);
    expect(await storedTransactions()).toBe(false);

    // The endpoints are back; well within the ten-minute refresh the next use finds the extension again.
    setMode('full');
    advance(RECHECK_PAUSE_MS);
    expect(Date.now() - start).toBeLessThan(CAPABILITY_MAX_AGE_MS / 10);
    expect((await capabilitiesOf(wallet.id)).walletTransactions).toBe(false);
    await vi.waitFor(async () => expect(await storedTransactions()).toBe(true));
    expect((await capabilitiesOf(wallet.id)).walletTransactions).toBe(true);
    // Found back: no more probes until the usual refresh.
    const settled = seen.length;
    advance(RECHECK_PAUSE_MS * 4);
    await capabilitiesOf(wallet.id);
    expect(probesSince(settled)).toBe(0);
  });

  it('probes again soon when extensions that answered before answer absent, not ten minutes later', async () => {
    setMode('down');
    await probeCapabilities(wallet.id);
    setMode('spec');
    await probeCapabilities(wallet.id);
    // Spec answers where the extensions answered before: an outage, so asked again soon.
    setMode('full');
    const before = seen.length;
    advance(RECHECK_PAUSE_MS + 1);
    expect(Date.now() - start).toBeLessThan(CAPABILITY_MAX_AGE_MS / 10);
    await capabilitiesOf(wallet.id);
    await vi.waitFor(async () => expect(await storedTransactions()).toBe(true));
    expect(probesSince(before)).toBe(1);
  });

  it('waits out the pause after a probe that learned nothing, then asks on the next use', async () => {
    setMode('down');
    await probeCapabilities(wallet.id);
    setMode('full');
    const before = seen.length;
    advance(FAILED_PROBE_PAUSE_MS - 1000);
    await capabilitiesOf(wallet.id);
    expect(probesSince(before)).toBe(0);
    advance(2000);
    await capabilitiesOf(wallet.id);
    await vi.waitFor(() => expect(probesSince(before)).toBe(1));
  });

  it('does not keep asking a service that never had the extension', async () => {
    setMode('spec');
    await probeCapabilities(wallet.id);
    // The first probe saw it go: asked once more, then it is taken as the service's answer.
    advance(RECHECK_PAUSE_MS + 1);
    await probeCapabilities(wallet.id);
    expect(await storedTransactions()).toBe(false);
    const before = seen.length;
    for (let i = 0; i < 5; i++) {
      advance(RECHECK_PAUSE_MS + 1);
      await capabilitiesOf(wallet.id);
    }
    // Still the recheck window of the first failure: a probe per pause at most, never more.
    expect(probesSince(before)).toBeLessThanOrEqual(5);
    advance(CAPABILITY_MAX_AGE_MS);
    await probeCapabilities(wallet.id);
    const settled = seen.length;
    advance(RECHECK_PAUSE_MS + 1);
    await capabilitiesOf(wallet.id);
    expect(probesSince(settled)).toBe(0);
  });
});

describe('with the spec alone', () => {
  const children = () => wallet.addresses.filter((a) => a.type === 'INTERNAL');

  beforeEach(async () => {
    setMode('spec');
    await probeCapabilities(wallet.id);
    await testDb.db.delete(operationRequests);
    await testDb.db.delete(webhookEvents);
    // What the tests check is what the console asks after the probe.
    seen.length = 0;
  });

  async function rememberRequest(addressId: string) {
    await testDb.db.insert(operationRequests).values({
      type: 'swap',
      status: 'REJECTED',
      walletId: wallet.id,
      addressId,
      payload: {},
      payloadHash: 'x',
      review: {},
      summary: 'swap',
      requiredApprovals: 1,
      requesterId: 'u1',
      requesterEmail: 'u1@example.com',
      expiresAt: new Date(Date.now() + 60_000),
    });
  }

  async function rememberWebhook(addressId: string, receivedAt = new Date()) {
    const id = randomUUID();
    await testDb.db.insert(webhookEvents).values({
      dedupeKey: id,
      walletId: wallet.id,
      event: 'deposit.success',
      transactionId: id,
      status: 'SUCCESS',
      type: 'DEPOSIT',
      reference: 'ref',
      payload: { id, addressId, address: { id: addressId } },
      receivedAt,
    });
  }

  it('knows the child addresses of requests and webhooks, newest first, and reads them with #5', async () => {
    const [a, b] = children();
    await rememberWebhook(a!.id, new Date(Date.now() - 60_000));
    await rememberRequest(b!.id);
    // A payload naming an address of no wallet here: read with #5 and dropped.
    await rememberWebhook(randomUUID(), new Date(Date.now() - 120_000));
    const ids = await knownAddressIds(wallet.id);
    expect(ids.slice(0, 2)).toEqual([b!.id, a!.id]);
    const list = await childAddressesFor(client(), wallet.id);
    expect(list.source).toBe('known');
    expect(list.addresses.map((x) => x.id).sort()).toEqual([a!.id, b!.id].sort());
    // Nothing was asked of the address list extension.
    expect(seen.some((s) => s.endsWith(`/v1/wallets/${wallet.id}/addresses`))).toBe(false);
  });

  it('checks an address id typed by hand with #5', async () => {
    const child = children()[0]!;
    expect(await checkChildAddress(client(), wallet.id, 'not-a-uuid')).toMatchObject({ ok: false });
    expect(await checkChildAddress(client(), wallet.id, randomUUID())).toEqual({
      ok: false,
      error: 'The custody service has no address with this id in this wallet.',
    });
    const checked = await checkChildAddress(client(), wallet.id, ` ${child.id} `);
    expect(checked.ok && checked.address.address).toBe(child.address);
    // A child address of another wallet is refused by this wallet's key.
    const foreign = creds.wallets[1]!.addresses.find((x) => x.type === 'INTERNAL')!;
    expect((await checkChildAddress(client(), wallet.id, foreign.id)).ok).toBe(false);
  });

  it('loads the withdrawal form context with the master wallet, known addresses and no balances', async () => {
    const child = children()[0]!;
    await rememberRequest(child.id);
    const context = await withdrawFormContext(wallet.id);
    expect(context?.addressSource).toBe('known');
    expect(context?.balances).toBe('unsupported');
    expect(context?.sources.map((s) => s.id)).toEqual(['master', child.id]);
    expect(context?.assets.length).toBeGreaterThan(0);
    expect(context?.assets.every((a) => a.balance === null)).toBe(true);
  });

  it('a capability stored as present but missing in use falls back and is marked missing', async () => {
    setMode('full');
    await probeCapabilities(wallet.id);
    setMode('spec');
    const child = children()[0]!;
    await rememberRequest(child.id);
    const context = await withdrawFormContext(wallet.id);
    expect(context?.addressSource).toBe('known');
    expect(context?.balances).toBe('unsupported');
    const now = await capabilitiesOf(wallet.id);
    expect(now.walletAddresses).toBe(false);
    expect(now.balances).toBe(false);
  });

  /** Every row of the given addresses, newest first, as the sandbox has them (read with the extensions on). */
  async function expectedRows(addressIds: string[]): Promise<Transaction[]> {
    const full = createCustodyClient({
      baseUrl: 'http://sandbox.internal/sandbox',
      fetch: sandbox.fetch,
      apiKey: wallet.apiKey,
    });
    const rows: Transaction[] = [];
    for (const addressId of addressIds) {
      const page = await full.addresses.listTransactions({ walletId: wallet.id, addressId, limit: 500 });
      rows.push(...page.data);
    }
    const unique = [...new Map(rows.map((r) => [r.id, r])).values()];
    return unique.sort(
      (x, y) => Date.parse(y.createdAt ?? '') - Date.parse(x.createdAt ?? '') || (y.id > x.id ? 1 : -1),
    );
  }

  it('lists, exports and finds transactions per known child address, merged by date', async () => {
    const deposits = children().filter((a) => a.disableAutoSweep);
    const ids = deposits.slice(0, 3).map((a) => a.id);
    for (const [i, id] of ids.entries()) {
      const asset = wallet.assets[0]!;
      const res = await sandbox.handle(
        new Request('http://x/sandbox/control/deposits', {
          method: 'POST',
          headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ addressId: id, assetId: asset.id, amount: `${i + 1}.5` }),
        }),
      );
      expect(res.status).toBe(200);
      await rememberWebhook(id);
    }
    const expected = await expectedRows(ids);
    expect(expected.length).toBeGreaterThanOrEqual(3);
    const c = client();

    const filters = filtersOf({ ...DEFAULT_TRANSACTION_SEARCH, limit: 10 });
    const page = await withTransactionSource(c, wallet.id, (source) =>
      listTransactionPage(c, wallet.id, filters, source),
    );
    expect(page.scope).toBe('child-addresses');
    expect(page.data.map((t) => t.id)).toEqual(expected.slice(0, 10).map((t) => t.id));
    expect(page.meta.totalItems).toBeGreaterThanOrEqual(expected.length);
    // The wallet-wide list was not used (it is missing); #3 was, once per address.
    expect(seen.some((s) => s.endsWith(`/v1/wallets/${wallet.id}/transactions`))).toBe(false);

    const second = await withTransactionSource(c, wallet.id, (source) =>
      listTransactionPage(c, wallet.id, { ...filters, page: 2 }, source),
    );
    expect(second.data.map((t) => t.id)).toEqual(expected.slice(10, 20).map((t) => t.id));

    let done: { rows: number; error?: unknown } | undefined;
    const stream = await withTransactionSource(c, wallet.id, (source) =>
      openTransactionCsvStream(
        c,
        wallet.id,
        filtersOf(DEFAULT_TRANSACTION_SEARCH),
        (o) => {
          done = o;
        },
        source,
      ),
    );
    const csv = (await new Response(stream).text()).trimEnd().split('\r\n');
    expect(csv.slice(1).map((line) => line.split(',')[0])).toEqual(expected.map((t) => t.id));
    expect(done).toEqual({ rows: expected.length });

    const target = expected[expected.length - 1]!;
    const one = await withTransactionSource(
      c,
      wallet.id,
      (source) => getTransaction(c, wallet.id, target.id, source),
      'transaction',
    );
    expect(one.id).toBe(target.id);
    await expect(
      withTransactionSource(
        c,
        wallet.id,
        (source) => getTransaction(c, wallet.id, randomUUID(), source),
        'transaction',
      ),
    ).rejects.toMatchObject({ status: 404 });

    const capabilities = await capabilitiesOf(wallet.id);
    const searchable = {
      id: wallet.id,
      name: wallet.name,
      client: c,
      capabilities,
      addressIds: () => knownAddressIds(wallet.id),
    };
    const byId = await searchConsole([searchable], target.id, null);
    expect(byId.failures).toEqual([]);
    expect(byId.hits.filter((h) => h.kind === 'transaction').map((h) => h.id)).toEqual([target.id]);
    const withHash = expected.find((t) => t.hash && t.hash.length === 66);
    expect(withHash?.hash).toBeTruthy();
    const byHash = await searchConsole([searchable], withHash?.hash ?? '', null);
    expect(byHash.hits.map((h) => h.id)).toEqual([withHash?.id]);
    // A name or reference needs the extensions: no hits, and no failure either.
    const byName = await searchConsole([searchable], 'payout-42', null);
    expect(byName).toMatchObject({ hits: [], failures: [] });
  });
});
