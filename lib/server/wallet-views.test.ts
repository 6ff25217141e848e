// The address page's loaders against the embedded sandbox: a child address's balances (through the balances
// extension, and said to be unavailable on a service without it) and its transactions (#3), newest first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { createTestDatabase, type TestDatabase } from '@/test/db';

const { capabilitiesOf, probeCapabilities } = await import('./capabilities');
const { sharedReadsFor } = await import('./upstream-reads');
const { loadAddressBalances, loadAddresses, loadAddressTransactions } = await import('./wallet-views');
const { webhookEvents } = await import('@/lib/db/schema');

let testDb: TestDatabase;
let sandbox: Sandbox;
let wallet: SandboxCredentials['wallets'][number];
const dataDir = mkdtempSync(path.join(tmpdir(), 'wallet-views-'));
/** With its extensions, or a service with the spec's endpoints alone. */
let mode: 'full' | 'spec' = 'full';

const serviceFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const request = input instanceof Request ? input : new Request(input, init);
  const pathname = new URL(request.url).pathname.replace(/^\/sandbox/, '');
  if (
    mode === 'spec' &&
    (/^\/v1\/wallets\/[^/]+\/addresses\/[^/]+\/balances$/.test(pathname) ||
      /^\/v1\/wallets\/[^/]+\/addresses$/.test(pathname))
  )
    return Response.json(
      { statusCode: 404, message: `Cannot GET ${pathname}`, error: 'Not Found' },
      { status: 404 },
    );
  return sandbox.fetch(request);
}) as typeof fetch;

/** Answers kept for a few seconds (balances) are dropped, as a webhook of the wallet would drop them. */
function forget() {
  sharedReadsFor(serviceFetch).forgetWallet(wallet.id);
}

async function deposit(addressId: string, amount: string) {
  const asset = wallet.assets[0]!;
  const res = await sandbox.handle(
    new Request('http://x/sandbox/control/deposits', {
      method: 'POST',
      headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ addressId, assetId: asset.id, amount }),
    }),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { id: string } }).data;
}

function child(sweeps: boolean) {
  const found = wallet.addresses.find((a) => a.type === 'INTERNAL' && a.disableAutoSweep === !sweeps);
  if (!found) throw new Error(`no ${sweeps ? 'sweeping' : 'non-sweeping'} child address in the seed`);
  return found;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  const encryptionKey = Buffer.alloc(32, 9);
  sandbox = await createSandbox({
    db: testDb.db,
    dbKind: testDb.handle.kind,
    encryptionKey,
    seed: 'wallet-views-test',
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
  const creds = await sandbox.credentials();
  wallet = creds.wallets.find((w) => w.name.startsWith('Payouts')) ?? creds.wallets[0]!;
  await Promise.all(creds.wallets.map((w) => probeCapabilities(w.id)));
});

afterAll(async () => {
  await sandbox?.stop();
  await testDb?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  mode = 'full';
  forget();
});

describe('loadAddressTransactions', () => {
  it("lists a child address's transactions newest first, and finds one by id", async () => {
    const address = child(false);
    const first = await deposit(address.id, '1.25');
    const second = await deposit(address.id, '2.5');

    const page = await loadAddressTransactions(wallet.id, address.id, { page: 1, limit: 10, order: 'DESC' });
    if (!page.ok) throw new Error(page.error);
    const ids = page.data.data.map((tx) => tx.id);
    expect(ids.indexOf(second.id)).toBe(0);
    expect(ids.indexOf(first.id)).toBe(1);
    expect(page.data.data.every((tx) => tx.addressId === address.id || tx.address?.id === address.id)).toBe(
      true,
    );
    expect(page.data.meta.totalItems).toBeGreaterThanOrEqual(2);

    const oldestFirst = await loadAddressTransactions(wallet.id, address.id, {
      page: 1,
      limit: 100,
      order: 'ASC',
    });
    if (!oldestFirst.ok) throw new Error(oldestFirst.error);
    const ascending = oldestFirst.data.data.map((tx) => tx.id);
    expect(ascending.indexOf(first.id)).toBeLessThan(ascending.indexOf(second.id));

    const one = await loadAddressTransactions(wallet.id, address.id, {
      page: 1,
      limit: 10,
      order: 'DESC',
      id: first.id,
    });
    if (!one.ok) throw new Error(one.error);
    expect(one.data.data.map((tx) => tx.id)).toEqual([first.id]);
    expect(one.data.data[0]?.status).toBe('PENDING');
  });

  it('follows a deposit to a sweeping address through settlement to its sweep', async () => {
    const address = child(true);
    const made = await deposit(address.id, '3.75');
    await sandbox.settleAll();
    const read = await loadAddressTransactions(wallet.id, address.id, {
      page: 1,
      limit: 10,
      order: 'DESC',
      id: made.id,
    });
    if (!read.ok) throw new Error(read.error);
    expect(read.data.data[0]).toMatchObject({ id: made.id, status: 'SUCCESS', assetSwept: true });
  });

  it("answers the service's own message for an address it does not know, and 404 for an unknown wallet", async () => {
    const unknown = await loadAddressTransactions(wallet.id, '00000000-0000-4000-8000-000000000000', {
      page: 1,
      limit: 10,
      order: 'DESC',
    });
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) {
      expect(unknown.status).toBe(404);
      expect(unknown.error).toMatch(/not found/i);
    }
    const noWallet = await loadAddressTransactions('not-a-wallet', child(true).id, {
      page: 1,
      limit: 10,
      order: 'DESC',
    });
    expect(noWallet).toEqual({
      ok: false,
      status: 404,
      error: 'This wallet is not connected to the console.',
    });
  });
});

describe('loadAddressBalances', () => {
  it('reads the balances extension for one address, and moves with a settled deposit', async () => {
    const address = child(false);
    const asset = wallet.assets[0]!;
    const before = await loadAddressBalances(wallet.id, address.id);
    if (!before.ok) throw new Error(before.error);
    if (!before.data.available) throw new Error('the sandbox offers balances');
    const held = before.data.balances.find((b) => b.walletAssetId === asset.id);
    expect(held).toMatchObject({ symbol: asset.symbol, decimals: asset.decimals });

    await deposit(address.id, '4');
    await sandbox.settleAll();
    forget();
    const after = await loadAddressBalances(wallet.id, address.id);
    if (!after.ok || !after.data.available) throw new Error('balances expected');
    const now = after.data.balances.find((b) => b.walletAssetId === asset.id);
    expect(Number(now?.balance)).toBeCloseTo(Number(held?.balance) + 4, 6);
  });

  it('says balances are not available on a service without the extension, and remembers it', async () => {
    expect((await capabilitiesOf(wallet.id)).balances).toBe(true);
    mode = 'spec';
    const result = await loadAddressBalances(wallet.id, child(true).id);
    expect(result).toEqual({ ok: true, data: { available: false } });
    expect((await capabilitiesOf(wallet.id)).balances).toBe(false);
    // The next read does not ask the service for balances at all.
    const again = await loadAddressBalances(wallet.id, child(true).id);
    expect(again).toEqual({ ok: true, data: { available: false } });
    mode = 'full';
    await probeCapabilities(wallet.id);
    expect((await capabilitiesOf(wallet.id)).balances).toBe(true);
  });

  it('is a 404 for a wallet the console is not connected to', async () => {
    expect(await loadAddressBalances('not-a-wallet', child(true).id)).toEqual({
      ok: false,
      status: 404,
      error: 'This wallet is not connected to the console.',
    });
  });
});

describe('loadAddresses', () => {
  it('without the address list shows the child addresses the console has seen, read with #5', async () => {
    const address = child(true);
    await testDb.db.insert(webhookEvents).values({
      dedupeKey: `seen-${address.id}`,
      walletId: wallet.id,
      event: 'deposit.success',
      transactionId: crypto.randomUUID(),
      status: 'SUCCESS',
      type: 'DEPOSIT',
      reference: 'seen',
      payload: { addressId: address.id },
      receivedAt: new Date(),
    });
    mode = 'spec';
    forget();
    const page = await loadAddresses(wallet.id, { page: 1, limit: 20 });
    if (!page.ok) throw new Error(page.error);
    expect(page.data.source).toBe('known');
    expect(page.data.data.map((a) => a.id)).toContain(address.id);
    expect(page.data.meta.totalItems).toBe(page.data.data.length);
    const filtered = await loadAddresses(wallet.id, { page: 1, limit: 20, search: 'no-such-name' });
    if (!filtered.ok) throw new Error(filtered.error);
    expect(filtered.data.data).toEqual([]);
  });
});
