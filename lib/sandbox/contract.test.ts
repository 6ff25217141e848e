// Contract tests: every endpoint over real Request/Response objects, answers parsed with the client's strict schemas.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  erc20Abi,
  getAddress,
  parseTransaction,
  recoverTransactionAddress,
  recoverTypedDataAddress,
  type TransactionSerialized,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCustodyClient } from '@/lib/custody/client';
import { strictSchemas as S } from '@/lib/custody/schemas';
import type { DatabaseHandle } from '@/lib/db/connection';
import { openTestHandle } from '@/test/db';
import { sandboxRateLimitWindows } from './db/schema';
import { createSandbox, SANDBOX_MIGRATIONS, type Sandbox, type SandboxCredentials } from './index';

type Wallet = SandboxCredentials['wallets'][number];

const BASE = 'http://localhost:3000/sandbox';
const abi = erc20Abi as unknown as Record<string, unknown>[];

let database: DatabaseHandle;
let closeDatabase: (() => Promise<void>) | undefined;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let w: Wallet;
let other: Wallet;
let dataDir: string;
let receiver: Server;
let receiverStatus = 200;
const received: Array<{ body: string; signature: string | undefined }> = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: req.headers['x-test-signature'] as string,
      });
      res.statusCode = receiverStatus;
      res.end(receiverStatus === 200 ? 'received' : 'receiver broke');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  dataDir = mkdtempSync(path.join(tmpdir(), 'sandbox-contract-'));
  // In-memory PGlite, or a fresh PostgreSQL database when TEST_DATABASE_URL is set.
  const opened = await openTestHandle([SANDBOX_MIGRATIONS]);
  database = opened.handle;
  closeDatabase = opened.close;
  sandbox = await createSandbox({
    db: database.db,
    dbKind: database.kind,
    encryptionKey: Buffer.alloc(32, 7),
    seed: 'contract-tests',
    blockTimeMs: 1000,
    webhookUrl: `http://127.0.0.1:${port}/hooks`,
    webhookRetryMs: [10, 20],
    signatureHeader: 'x-test-signature',
    baseUrl: BASE,
    dataDir,
  });
  creds = await sandbox.credentials();
  w = creds.wallets[0]!;
  other = creds.wallets[1]!;
});

afterAll(async () => {
  await sandbox?.stop();
  await closeDatabase?.();
  await new Promise((resolve) => receiver?.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

async function api(
  method: string,
  pathname: string,
  options: { key?: string | null; body?: unknown; raw?: string } = {},
): Promise<{ status: number; json: Record<string, unknown>; headers: Headers }> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? w.apiKey : options.key;
  if (key) headers['x-api-key'] = key;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await sandbox.handle(new Request(`${BASE}${pathname}`, { method, headers, body }));
  return { status: res.status, json: await res.json(), headers: res.headers };
}

function ok<T extends z.ZodType>(
  res: { status: number; json: unknown },
  schema: T,
  message?: string,
): z.output<T> {
  expect(res.status, JSON.stringify(res.json).slice(0, 400)).toBe(200);
  const parsed = schema.parse(res.json) as z.output<T> & { message: string; statusCode: number };
  expect(parsed.statusCode).toBe(200);
  if (message) expect(parsed.message).toBe(message);
  return parsed;
}

function fail(res: { status: number; json: Record<string, unknown> }, status: number, pattern?: RegExp) {
  expect(res.status, JSON.stringify(res.json)).toBe(status);
  expect(res.json).toEqual({ statusCode: status, message: expect.any(String) });
  if (pattern) expect(String(res.json.message)).toMatch(pattern);
}

const asset = (wallet: Wallet, symbol: string) => wallet.assets.find((a) => a.symbol === symbol)!;
const funded = (wallet: Wallet, n = 0) =>
  wallet.addresses.filter((a) => a.type === 'INTERNAL' && a.disableAutoSweep)[n]!;
const sweeping = (wallet: Wallet, n = 0) =>
  wallet.addresses.filter((a) => a.type === 'INTERNAL' && !a.disableAutoSweep)[n]!;
const external = (wallet: Wallet) => wallet.addresses.find((a) => a.type === 'EXTERNAL')!;
const RECIPIENT = getAddress('0x00000000000000000000000000000000000000aa');

async function readBalance(wallet: Wallet, token: string, holder: string): Promise<bigint> {
  const res = await api('POST', `/v1/wallets/${wallet.id}/contracts/read`, {
    key: wallet.apiKey,
    body: {
      calls: [{ address: asset(wallet, token).address, method: 'balanceOf', abi, parameters: [holder] }],
    },
  });
  return BigInt(ok(res, S.envelope(S.contractReadSingle)).data);
}

describe('seed and credentials', () => {
  it('seeds three wallets with assets, addresses and beneficiaries', () => {
    expect(creds.baseUrl).toBe(BASE);
    expect(creds.totpSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(creds.wallets).toHaveLength(3);
    for (const wallet of creds.wallets) {
      expect(wallet.apiKey).toMatch(/^sbx_/);
      expect(wallet.assets.map((a) => a.symbol).sort()).toEqual(
        [wallet.blockchain === 'polygon' ? 'POL' : 'ETH', 'USDC', 'USDT'].sort(),
      );
      expect(wallet.addresses.filter((a) => a.type === 'INTERNAL').length).toBeGreaterThanOrEqual(8);
      expect(wallet.addresses.some((a) => a.disableAutoSweep && a.type === 'INTERNAL')).toBe(true);
      expect(wallet.addresses.some((a) => !a.disableAutoSweep)).toBe(true);
      expect(wallet.beneficiaries.length).toBeGreaterThanOrEqual(4);
    }
    expect(new Set(creds.wallets.map((x) => x.apiKey)).size).toBe(3);
    expect(creds.wallets.map((x) => x.network)).toContain('mainnet');
  });

  it('writes the credentials file owner-only', () => {
    const mode = statSync(path.join(dataDir, 'sandbox-credentials.json')).mode & 0o777;
    expect(mode).toBe(0o600);
  });
});

describe('authentication, authorization and errors', () => {
  it('401 without or with a wrong x-api-key', async () => {
    fail(await api('GET', `/v1/wallets/${w.id}`, { key: null }), 401, /API key/);
    fail(await api('GET', `/v1/wallets/${w.id}`, { key: 'sbx_nope' }), 401, /Invalid API key/);
  });

  it("403 when one wallet's key is used on another wallet", async () => {
    fail(await api('GET', `/v1/wallets/${other.id}`), 403, /does not belong/);
  });

  it('404 for unknown wallets, addresses, transactions, rules and beneficiaries', async () => {
    const unknown = '7d1d8f2e-0000-4000-8000-000000000000';
    fail(await api('GET', `/v1/wallets/${unknown}`), 404, /Wallet not found/);
    fail(await api('GET', `/v1/wallets/${w.id}/addresses/${unknown}`), 404, /Address not found/);
    fail(await api('GET', `/v1/wallets/${w.id}/addresses/${other.addresses[0]!.id}`), 404);
    fail(await api('GET', `/v1/wallets/${w.id}/transactions/${unknown}`), 404, /Transaction not found/);
    fail(await api('POST', `/v1/wallets/${w.id}/transactions/retry`, { body: { id: unknown } }), 404);
    fail(await api('DELETE', `/v1/wallets/${w.id}/beneficiaries/${unknown}`), 404, /Beneficiary not found/);
    fail(
      await api('PATCH', `/v1/wallets/${w.id}/addresses/${funded(w).id}/auto-settlements/rules/${unknown}`, {
        body: { isActive: false },
      }),
      404,
      /rule not found/,
    );
    fail(await api('GET', '/v1/nothing-here'), 404);
  });

  it('400 for a malformed body', async () => {
    fail(await api('POST', `/v1/wallets/${w.id}/withdraw`, { raw: '{"assets": [' }), 400, /Malformed JSON/);
    fail(await api('POST', `/v1/wallets/${w.id}/withdraw`, { body: { assets: 'all of it' } }), 400, /assets/);
    fail(await api('POST', `/v1/wallets/${w.id}/withdraw`, { raw: '[1,2]' }), 400);
  });

  it('422 for well-formed but invalid requests', async () => {
    const usdc = asset(w, 'USDC');
    const withdraw = (item: Record<string, unknown>) =>
      api('POST', `/v1/wallets/${w.id}/withdraw`, {
        body: { assets: [{ id: usdc.id, address: RECIPIENT, amount: '1', ...item }] },
      });
    fail(await withdraw({ amount: '0' }), 422, /greater than zero/);
    fail(await withdraw({ amount: '-5' }), 422, /positive decimal/);
    fail(await withdraw({ amount: '1.1234567' }), 422, /6 decimal places/);
    fail(await withdraw({ id: '7d1d8f2e-0000-4000-8000-000000000000' }), 422, /not an asset of this wallet/);
    fail(await withdraw({ id: asset(other, 'USDC').id }), 422, /not an asset of this wallet/);
    fail(await withdraw({ address: '0x1234' }), 422, /not a valid EVM address/);
    fail(
      await api('POST', `/v1/wallets/${w.id}/withdraw`, { body: { assets: [] } }),
      422,
      /between 1 and 20/,
    );
    fail(
      await api('POST', `/v1/wallets/${w.id}/addresses/${external(w).id}/withdraw`, {
        body: { assets: [{ id: usdc.id, address: RECIPIENT, amount: '1' }] },
      }),
      422,
      /external/,
    );
    const many = Array.from({ length: 21 }, () => ({ id: usdc.id, address: RECIPIENT, amount: '1' }));
    fail(
      await api('POST', `/v1/wallets/${w.id}/withdraw/network-fee`, { body: { assets: many } }),
      422,
      /between 1 and 20/,
    );
    const calls = Array.from({ length: 21 }, () => ({ address: usdc.address, method: 'symbol', abi }));
    fail(
      await api('POST', `/v1/wallets/${w.id}/contracts/read`, { body: { calls } }),
      422,
      /between 1 and 20/,
    );
    fail(
      await api('POST', `/v1/wallets/${w.id}/contracts/read`, { body: { calls: [] } }),
      422,
      /between 1 and 20/,
    );
  });

  it('429 with Retry-After once a key passes its rate limit', async () => {
    // Instances on one database share each key's count: the key's window starts afresh for this limit.
    await database.db.delete(sandboxRateLimitWindows);
    // A second instance over the same, already seeded database: it must not reseed, and has a tiny limit.
    const limited = await createSandbox({
      db: database.db,
      dbKind: database.kind,
      encryptionKey: Buffer.alloc(32, 7),
      seed: 'contract-tests',
      blockTimeMs: 1000,
      webhookUrl: 'http://127.0.0.1:9/unused',
      webhookRetryMs: [],
      signatureHeader: 'x-test-signature',
      baseUrl: BASE,
      dataDir,
      rateLimit: { limit: 2, windowMs: 60_000 },
    });
    expect((await limited.credentials()).wallets.map((x) => x.id)).toEqual(creds.wallets.map((x) => x.id));
    const call = () =>
      limited.handle(new Request(`${BASE}/v1/wallets/${w.id}`, { headers: { 'x-api-key': w.apiKey } }));
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    const limitedRes = await call();
    expect(limitedRes.status).toBe(429);
    expect(Number(limitedRes.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limitedRes.json()).toEqual({
      statusCode: 429,
      message: expect.stringMatching(/rate limit/),
    });
    const otherKey = await limited.handle(
      new Request(`${BASE}/v1/wallets/${other.id}`, { headers: { 'x-api-key': other.apiKey } }),
    );
    expect(otherKey.status).toBe(200);
    await limited.stop();
  });

  it('limits outside callers over HTTP only: the console in-process transport is never refused', async () => {
    await database.db.delete(sandboxRateLimitWindows);
    const limited = await createSandbox({
      db: database.db,
      dbKind: database.kind,
      encryptionKey: Buffer.alloc(32, 7),
      seed: 'contract-tests',
      blockTimeMs: 1000,
      webhookUrl: 'http://127.0.0.1:9/unused',
      webhookRetryMs: [],
      signatureHeader: 'x-test-signature',
      baseUrl: BASE,
      dataDir,
      rateLimit: { limit: 2, windowMs: 60_000 },
    });
    const url = `${BASE}/v1/wallets/${w.id}`;
    const init = { headers: { 'x-api-key': w.apiKey } };
    const overHttp = () => limited.handle(new Request(url, init));
    const inProcess = () => limited.fetch(url, init);
    // Five times the limit in-process, before and after the HTTP window is used up.
    const before = await Promise.all(Array.from({ length: 10 }, inProcess));
    expect(before.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect((await overHttp()).status).toBe(200);
    expect((await overHttp()).status).toBe(200);
    const refused = await overHttp();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ statusCode: 429, message: expect.stringMatching(/rate limit/) });
    const client = createCustodyClient({ baseUrl: BASE, apiKey: w.apiKey, fetch: limited.fetch });
    for (let i = 0; i < 5; i++) expect((await client.wallets.get({ walletId: w.id })).data.id).toBe(w.id);
    expect((await overHttp()).status).toBe(429);
    await limited.stop();
  });
});

describe('wallet and address reads', () => {
  it('#4 reads the wallet with assets, analytics and blockchain', async () => {
    const res = ok(
      await api('GET', `/v1/wallets/${w.id}`),
      S.envelope(S.wallet),
      'Wallet fetched successfully',
    );
    expect(res.data.id).toBe(w.id);
    expect(res.data.address).toBe(w.address);
    expect(res.data.derivationPath).toBe("m/44'/60'/0'/0/0");
    expect(res.data.assets.map((a) => a.id).sort()).toEqual(w.assets.map((a) => a.id).sort());
    expect(res.data.analytics.currentBalance).toBeGreaterThan(0);
    expect(res.data.analytics.numberOfAssets).toBe(3);
    expect(res.data.apiCredential.key).not.toContain(w.apiKey);
  });

  it('#5 reads an address with its derivation path', async () => {
    const child = funded(w);
    const res = ok(
      await api('GET', `/v1/wallets/${w.id}/addresses/${child.id}`),
      S.envelope(S.address),
      'Address fetched successfully',
    );
    expect(res.data.address).toBe(child.address);
    expect(res.data.derivationPath).toMatch(/^m\/44'\/60'\/0'\/0\/\d+$/);
    expect(res.data.configurations.disableAutoSweep).toBe(true);
  });

  it('lists addresses with paging, type and search', async () => {
    const page = ok(
      await api('GET', `/v1/wallets/${w.id}/addresses?limit=4&page=2`),
      S.pagedEnvelope(S.address),
      'Addresses fetched successfully',
    );
    expect(page.data).toHaveLength(4);
    expect(page.meta).toMatchObject({ currentPage: 2, itemsPerPage: 4, itemCount: 4 });
    expect(page.meta.totalItems).toBeGreaterThanOrEqual(13);
    const externals = ok(
      await api('GET', `/v1/wallets/${w.id}/addresses?type=EXTERNAL`),
      S.pagedEnvelope(S.address),
    );
    expect(externals.data.length).toBeGreaterThan(0);
    expect(externals.data.every((a) => a.type === 'EXTERNAL')).toBe(true);
    const child = sweeping(w, 2);
    const found = ok(
      await api('GET', `/v1/wallets/${w.id}/addresses?search=${child.address.slice(2, 12).toLowerCase()}`),
      S.pagedEnvelope(S.address),
    );
    expect(found.data.map((a) => a.id)).toEqual([child.id]);
  });
});

describe('transaction lists', () => {
  it('#3 pages with a default of 100 and really filters', async () => {
    const txs = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions?limit=500`),
      S.pagedEnvelope(S.transaction),
      'Transactions fetched successfully',
    );
    expect(txs.meta.totalItems).toBeGreaterThanOrEqual(100);
    const byAddress = new Map<string, number>();
    for (const t of txs.data)
      if (t.addressId) byAddress.set(t.addressId, (byAddress.get(t.addressId) ?? 0) + 1);
    const [busiest] = [...byAddress.entries()].sort((a, b) => b[1] - a[1])[0]!;
    const base = `/v1/wallets/${w.id}/addresses/${busiest}/transactions`;

    const all = ok(
      await api('GET', base),
      S.pagedEnvelope(S.transaction),
      'Transactions fetched successfully',
    );
    expect(all.meta.itemsPerPage).toBe(100);
    expect(all.data.every((t) => t.addressId === busiest)).toBe(true);

    const p2 = ok(await api('GET', `${base}?limit=2&page=2`), S.pagedEnvelope(S.transaction));
    expect(p2.data.map((t) => t.id)).toEqual(all.data.slice(2, 4).map((t) => t.id));
    expect(p2.meta.totalPages).toBe(Math.ceil(all.meta.totalItems / 2));

    const desc = all.data.map((t) => t.createdAt);
    expect([...desc].sort().reverse()).toEqual(desc);
    const asc = ok(await api('GET', `${base}?order=ASC`), S.pagedEnvelope(S.transaction)).data.map(
      (t) => t.createdAt,
    );
    expect([...asc].sort()).toEqual(asc);

    for (const status of ['SUCCESS', 'FAILED']) {
      const r = ok(await api('GET', `${base}?status=${status}`), S.pagedEnvelope(S.transaction));
      expect(r.data.every((t) => t.status === status)).toBe(true);
      expect(r.meta.totalItems).toBe(all.data.filter((t) => t.status === status).length);
    }
    const deposits = ok(await api('GET', `${base}?type=DEPOSIT`), S.pagedEnvelope(S.transaction));
    expect(deposits.data.every((t) => t.type === 'DEPOSIT')).toBe(true);
    expect(deposits.meta.totalItems).toBe(all.data.filter((t) => t.type === 'DEPOSIT').length);

    const usdc = ok(await api('GET', `${base}?assets=USDC,USDT`), S.pagedEnvelope(S.transaction));
    expect(usdc.data.every((t) => ['USDC', 'USDT'].includes(t.asset!.symbol))).toBe(true);
    expect(usdc.meta.totalItems).toBe(
      all.data.filter((t) => ['USDC', 'USDT'].includes(t.asset!.symbol)).length,
    );
    expect(usdc.meta.totalItems).toBeLessThan(all.meta.totalItems);

    const first = all.data.find((t) => t.hash)!;
    const byId = ok(await api('GET', `${base}?id=${first.id}`), S.pagedEnvelope(S.transaction));
    expect(byId.data.map((t) => t.id)).toEqual([first.id]);
    const byHash = ok(await api('GET', `${base}?hash=${first.hash}`), S.pagedEnvelope(S.transaction));
    expect(byHash.data.map((t) => t.id)).toEqual([first.id]);

    fail(await api('GET', `${base}?status=DONE`), 422, /status/);
    fail(await api('GET', `${base}?type=SWAP`), 422, /type/);
  });

  it('lists wallet transactions by reference and addressId, and reads one', async () => {
    const txs = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions?limit=5`),
      S.pagedEnvelope(S.transaction),
    );
    const t = txs.data.find((x) => x.addressId)!;
    const byRef = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions?reference=${t.reference}`),
      S.pagedEnvelope(S.transaction),
    );
    expect(byRef.data.map((x) => x.id)).toEqual([t.id]);
    const byAddress = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions?addressId=${t.addressId}`),
      S.pagedEnvelope(S.transaction),
    );
    expect(byAddress.data.every((x) => x.addressId === t.addressId)).toBe(true);
    const swaps = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions?type=SWAP`),
      S.pagedEnvelope(S.transaction),
    );
    expect(swaps.data.length).toBeGreaterThan(0);
    expect(swaps.data.every((x) => x.type === 'SWAP' && x.toAsset !== null)).toBe(true);
    const one = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${t.id}`),
      S.envelope(S.transaction),
      'Transaction fetched successfully',
    );
    expect(one.data.id).toBe(t.id);
  });
});

describe('whitelist, beneficiaries and auto-settlement', () => {
  it('#6 whitelists an external address with AML screening', async () => {
    const address = getAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    const res = ok(
      await api('POST', `/v1/wallets/${w.id}/addresses/whitelist`, { body: { address, name: 'Vendor' } }),
      S.envelope(S.address),
      'Address whitelisted successfully',
    );
    expect(res.data).toMatchObject({ address, type: 'EXTERNAL', name: 'Vendor', derivationPath: null });
    expect(res.data.configurations.aml.status).toBe('success');
    fail(await api('POST', `/v1/wallets/${w.id}/addresses/whitelist`, { body: { address: 'nope' } }), 422);
    const list = ok(
      await api('GET', `/v1/wallets/${w.id}/addresses?type=EXTERNAL`),
      S.pagedEnvelope(S.address),
    );
    expect(list.data.map((a) => a.address)).toContain(address);
  });

  it('removes a whitelisted address from the list (kept for its history); whitelisting it again brings it back', async () => {
    const address = getAddress('0x00000000000000000000000000000000000000bb');
    const added = ok(
      await api('POST', `/v1/wallets/${w.id}/addresses/whitelist`, { body: { address, name: 'Vendor B' } }),
      S.envelope(S.address),
    ).data;
    const listed = async () =>
      ok(
        await api('GET', `/v1/wallets/${w.id}/addresses?type=EXTERNAL&limit=100`),
        S.envelope(z.array(S.address)),
      ).data.map((a) => a.address);
    expect(await listed()).toContain(address);
    // Blockradar's documented path (Unwhitelist address).
    const removed = ok(
      await api('DELETE', `/v1/wallets/${w.id}/addresses/whitelist/${added.id}`),
      S.envelope(S.address),
      'Address unwhitelisted successfully',
    );
    expect(removed.data).toMatchObject({ id: added.id, isActive: false });
    expect(await listed()).not.toContain(address);
    const read = ok(await api('GET', `/v1/wallets/${w.id}/addresses/${added.id}`), S.envelope(S.address));
    expect(read.data.isActive).toBe(false);
    fail(await api('DELETE', `/v1/wallets/${w.id}/addresses/whitelist/${added.id}`), 404);
    fail(await api('DELETE', `/v1/wallets/${w.id}/addresses/whitelist/${funded(w, 0).id}`), 422, /external/);
    // The old path stays as an alias, with the same rules.
    fail(await api('DELETE', `/v1/wallets/${w.id}/addresses/${added.id}/whitelist`), 404);
    fail(await api('DELETE', `/v1/wallets/${w.id}/addresses/${funded(w, 0).id}/whitelist`), 422, /external/);
    const again = ok(
      await api('POST', `/v1/wallets/${w.id}/addresses/whitelist`, { body: { address, name: 'Vendor B' } }),
      S.envelope(S.address),
    );
    expect(again.data).toMatchObject({ id: added.id, isActive: true });
    expect(await listed()).toContain(address);
    const viaAlias = ok(
      await api('DELETE', `/v1/wallets/${w.id}/addresses/${added.id}/whitelist`),
      S.envelope(S.address),
      'Address unwhitelisted successfully',
    );
    expect(viaAlias.data).toMatchObject({ id: added.id, isActive: false });
    ok(
      await api('POST', `/v1/wallets/${w.id}/addresses/whitelist`, { body: { address, name: 'Vendor B' } }),
      S.envelope(S.address),
    );
  });

  it('#7 deletes a beneficiary, leaving the others listed', async () => {
    const before = ok(
      await api('GET', `/v1/wallets/${w.id}/beneficiaries`),
      S.pagedEnvelope(S.beneficiary),
      'Beneficiaries fetched successfully',
    );
    const victim = before.data[before.data.length - 1]!;
    const res = ok(
      await api('DELETE', `/v1/wallets/${w.id}/beneficiaries/${victim.id}`),
      S.envelope(S.beneficiary),
      'Beneficiary deleted successfully',
    );
    expect(res.data.deletedAt).not.toBeNull();
    const after = ok(await api('GET', `/v1/wallets/${w.id}/beneficiaries`), S.pagedEnvelope(S.beneficiary));
    expect(after.meta.totalItems).toBe(before.meta.totalItems - 1);
    expect(after.data.map((b) => b.id)).not.toContain(victim.id);
    fail(await api('DELETE', `/v1/wallets/${w.id}/beneficiaries/${victim.id}`), 404);
    expect((await sandbox.credentials()).wallets[0]!.beneficiaries.map((b) => b.id)).not.toContain(victim.id);
  });

  it('#8 and #9 read and toggle the wallet-level configuration', async () => {
    const read = ok(
      await api('GET', `/v1/wallets/${other.id}/auto-settlements`, { key: other.apiKey }),
      S.envelope(S.walletAutoSettlement),
      'Auto settlements fetched successfully',
    );
    expect(read.data.rules.length).toBeGreaterThan(0);
    expect(read.data.rules.every((r) => r.id === undefined)).toBe(true);
    const off = ok(
      await api('PATCH', `/v1/wallets/${other.id}/auto-settlements`, {
        key: other.apiKey,
        body: { isActive: false },
      }),
      S.envelope(S.walletAutoSettlement),
      'Auto settlement disabled successfully',
    );
    expect(off.data.isActive).toBe(false);
    const on = ok(
      await api('PATCH', `/v1/wallets/${other.id}/auto-settlements`, {
        key: other.apiKey,
        body: { isActive: true },
      }),
      S.envelope(S.walletAutoSettlement),
    );
    expect(on.data.isActive).toBe(true);
    fail(
      await api('PATCH', `/v1/wallets/${other.id}/auto-settlements`, {
        key: other.apiKey,
        body: { isActive: 'no' },
      }),
      400,
    );
  });

  it('#10 and #11 create and update an address rule; the list shows it', async () => {
    const child = sweeping(w, 5);
    const rule = {
      name: 'Forward USDC',
      isActive: true,
      order: 'FASTEST',
      slippageTolerance: '0.5',
      source: { assets: ['USDC'], blockchain: 'ethereum', minAmount: '100', maxAmount: '1000' },
      destination: { address: RECIPIENT, asset: 'USDC', blockchain: 'ethereum' },
    };
    const base = `/v1/wallets/${w.id}/addresses/${child.id}/auto-settlements/rules`;
    const created = ok(
      await api('POST', base, { body: rule }),
      S.envelope(S.autoSettlementRule),
      'Auto settlement rule created successfully',
    );
    const updated = ok(
      await api('PATCH', `${base}/${created.data.id}`, {
        body: { ...rule, isActive: false, name: 'Paused' },
      }),
      S.envelope(S.autoSettlementRule),
      'Auto settlement rule updated successfully',
    );
    expect(updated.data).toMatchObject({ id: created.data.id, isActive: false, name: 'Paused' });
    expect(updated.data.updatedAt > created.data.updatedAt).toBe(true);
    const list = ok(await api('GET', base), S.envelope(z.array(S.autoSettlementRule)));
    expect(list.message).toBe('Auto settlement rules fetched successfully');
    expect(list.data.map((r) => r.id)).toContain(created.data.id);
    fail(await api('POST', base, { body: { ...rule, order: 'SOONEST' } }), 422, /order/);
    fail(
      await api('POST', base, { body: { ...rule, source: { ...rule.source, minAmount: '5000' } } }),
      422,
      /minAmount/,
    );
  });
});

describe('withdrawals and the chain', () => {
  it('#12 withdraws from the master wallet; the transaction settles and a signed webhook is delivered', async () => {
    const usdc = asset(w, 'USDC');
    const before = await readBalance(w, 'USDC', RECIPIENT);
    const res = ok(
      await api('POST', `/v1/wallets/${w.id}/withdraw`, {
        body: {
          assets: [{ id: usdc.id, address: RECIPIENT, amount: '12.5', reference: 'wd-1', note: 'rent' }],
        },
      }),
      S.envelope(S.transaction),
      'Withdrawal request initiated successfully',
    );
    expect(res.data).toMatchObject({
      type: 'WITHDRAW',
      status: 'PENDING',
      confirmed: false,
      hash: null,
      note: 'rent',
    });
    await sandbox.tick();
    const included = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${res.data.id}`),
      S.envelope(S.transaction),
    );
    expect(included.data.status).toBe('PENDING');
    expect(included.data.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(included.data.blockNumber).toBeGreaterThan(0);
    await sandbox.drain();
    const settled = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${res.data.id}`),
      S.envelope(S.transaction),
    );
    expect(settled.data).toMatchObject({ status: 'SUCCESS', confirmed: true, gasUsed: 65000 });
    expect(settled.data.confirmations).toBeGreaterThanOrEqual(3);
    expect(Number(settled.data.gasFee)).toBeGreaterThan(0);
    expect(await readBalance(w, 'USDC', RECIPIENT)).toBe(before + 12_500_000n);

    const logs = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${res.data.id}/webhooks`),
      S.envelope(z.array(S.webhookLog)),
      'Transaction webhook logs fetched successfully',
    );
    expect(logs.data.map((l) => l.event)).toEqual(['withdraw.success']);
    expect(logs.data[0]).toMatchObject({
      status: 'success',
      attempts: 1,
      response: 'received',
      reference: res.data.id,
    });
    const delivery = received.find((r) => r.body.includes(res.data.id))!;
    expect(delivery.signature).toBe(createHmac('sha512', w.apiKey).update(delivery.body).digest('hex'));
    const payload = JSON.parse(delivery.body);
    expect(payload.event).toBe('withdraw.success');
    S.transaction.parse(payload.data);
  });

  it('#13 withdraws from a child; an overdraft settles as FAILED with a reason, and #1 retries it', async () => {
    const child = funded(w, 1);
    const usdt = asset(w, 'USDT');
    const res = ok(
      await api('POST', `/v1/wallets/${w.id}/addresses/${child.id}/withdraw`, {
        body: { assets: [{ id: usdt.id, address: RECIPIENT, amount: '999999' }] },
      }),
      S.envelope(S.transaction),
      'Withdrawal request initiated successfully',
    );
    expect(res.data.senderAddress).toBe(child.address);
    await sandbox.drain();
    const failed = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${res.data.id}`),
      S.envelope(S.transaction),
    );
    expect(failed.data.status).toBe('FAILED');
    expect(failed.data.reason).toMatch(/Insufficient balance/);
    const retried = ok(
      await api('POST', `/v1/wallets/${w.id}/transactions/retry`, { body: { id: res.data.id } }),
      S.envelope(S.transaction),
      'Transaction retried',
    );
    expect(retried.data).toMatchObject({ id: res.data.id, status: 'PENDING', type: 'WITHDRAW' });
    fail(
      await api('POST', `/v1/wallets/${w.id}/transactions/retry`, { body: { id: res.data.id } }),
      422,
      /failed/,
    );
    await sandbox.drain();

    const small = ok(
      await api('POST', `/v1/wallets/${w.id}/addresses/${child.id}/withdraw`, {
        body: { assets: [{ id: usdt.id, address: RECIPIENT, amount: '10' }] },
      }),
      S.envelope(S.transaction),
    );
    await sandbox.drain();
    const done = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${small.data.id}`),
      S.envelope(S.transaction),
    );
    expect(done.data.status).toBe('SUCCESS');
  });

  it('#14 signs withdrawals that parse and recover to the master address, with partial success', async () => {
    const res = ok(
      await api('POST', `/v1/wallets/${w.id}/withdraw/sign`, {
        body: {
          assets: [
            { id: asset(w, 'USDC').id, address: RECIPIENT, amount: '3' },
            { id: asset(w, 'USDC').id, address: 'not-an-address', amount: '3' },
            { id: asset(w, 'ETH').id, address: RECIPIENT, amount: '0.01' },
          ],
        },
      }),
      S.envelope(S.withdrawSignResult),
      'Batch withdrawal signed (2/3 successful)',
    );
    expect(res.data.errors).toEqual([
      expect.objectContaining({ index: 1, message: expect.stringMatching(/address/) }),
    ]);
    for (const item of res.data.success) {
      const tx = parseTransaction(item.signedTransaction as TransactionSerialized);
      expect(tx.chainId).toBe(11155111);
      const signer = await recoverTransactionAddress({
        serializedTransaction: item.signedTransaction as TransactionSerialized,
      });
      expect(signer).toBe(w.address);
    }
    const native = parseTransaction(res.data.success[1]!.signedTransaction as TransactionSerialized);
    expect(native.value).toBe(10n ** 16n);
    expect(native.to?.toLowerCase()).toBe(RECIPIENT.toLowerCase());
  });

  it('#15 estimates fees in single and batch form', async () => {
    const item = { id: asset(w, 'USDC').id, address: RECIPIENT, amount: '5' };
    const single = ok(
      await api('POST', `/v1/wallets/${w.id}/withdraw/network-fee`, { body: { assets: [item] } }),
      S.envelope(S.withdrawNetworkFeeSingle),
      'Network fee fetched successfully',
    );
    // 65,000 gas at 2 gwei.
    expect(single.data.networkFee).toBe('0.00013');
    expect(Number(single.data.nativeBalance)).toBeGreaterThan(0);
    const batch = ok(
      await api('POST', `/v1/wallets/${w.id}/withdraw/network-fee`, {
        body: { assets: [item, { ...item, id: asset(w, 'ETH').id }, { ...item, amount: 'x' }] },
      }),
      S.envelope(S.withdrawNetworkFeeBatch),
      'Network fee fetched successfully',
    );
    expect(batch.data.fees).toHaveLength(2);
    expect(batch.data.errors).toHaveLength(1);
    expect(batch.data.totalNetworkFee).toBe('0.000172');
    expect(batch.data.estimatedArrivalTime).toBe(60);
  });
});

describe('deposits, sweeps and webhooks', () => {
  it('a deposit settles, sweeps to the master wallet and fires both events', async () => {
    const child = sweeping(w, 0);
    const usdt = asset(w, 'USDT');
    const masterBefore = await readBalance(w, 'USDT', w.address);
    const res = ok(
      await api('POST', '/control/deposits', {
        body: { addressId: child.id, assetId: usdt.id, amount: '250.75' },
      }),
      S.envelope(S.transaction),
      'Deposit created successfully',
    );
    expect(res.data).toMatchObject({
      type: 'DEPOSIT',
      status: 'PENDING',
      amount: '250.75',
      addressId: child.id,
    });
    await sandbox.drain();
    const done = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${res.data.id}`),
      S.envelope(S.transaction),
    );
    expect(done.data).toMatchObject({
      status: 'SUCCESS',
      assetSwept: true,
      assetSweptAmount: '250.75',
      assetSweptRecipientAddress: w.address,
      assetSweptSenderAddress: child.address,
    });
    expect(done.data.assetSweptHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await readBalance(w, 'USDT', w.address)).toBe(masterBefore + 250_750_000n);
    expect(await readBalance(w, 'USDT', child.address)).toBe(0n);
    const logs = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${res.data.id}/webhooks`),
      S.envelope(z.array(S.webhookLog)),
    );
    expect(logs.data.map((l) => l.event)).toEqual(['deposit.success', 'deposit.swept.success']);
    expect(logs.data.every((l) => l.status === 'success')).toBe(true);
  });

  it('creates deposit addresses as the next HD children of the wallet; a deposit to one is swept', async () => {
    const create = (name: string) =>
      api('POST', `/v1/wallets/${w.id}/addresses`, { body: { name, metadata: { customerId: name } } });
    // Two at once still derive two different children.
    const [first, second] = await Promise.all([create('cus-a'), create('cus-b')]);
    const a = ok(first!, S.envelope(S.address), 'Address generated successfully').data;
    const b = ok(second!, S.envelope(S.address), 'Address generated successfully').data;
    expect(a).toMatchObject({ type: 'INTERNAL', name: 'cus-a', metadata: { customerId: 'cus-a' } });
    const master = ok(await api('GET', `/v1/wallets/${w.id}`), S.envelope(S.wallet)).data.derivationPath!;
    const account = master.slice(0, master.lastIndexOf('/'));
    const indexOf = (p: string | null | undefined) => Number(p?.slice(account.length + 1));
    expect(a.derivationPath?.startsWith(`${account}/`)).toBe(true);
    const listed = ok(
      await api('GET', `/v1/wallets/${w.id}/addresses?type=INTERNAL&limit=100`),
      S.envelope(z.array(S.address)),
    ).data;
    const seeded = listed
      .filter((x) => x.id !== a.id && x.id !== b.id)
      .map((x) => indexOf(x.derivationPath))
      .filter(Number.isFinite);
    expect(seeded.length).toBeGreaterThan(0);
    expect(Math.min(indexOf(a.derivationPath), indexOf(b.derivationPath))).toBeGreaterThan(
      Math.max(...seeded),
    );
    expect(a.address).not.toBe(b.address);
    expect(indexOf(a.derivationPath)).not.toBe(indexOf(b.derivationPath));
    const read = ok(await api('GET', `/v1/wallets/${w.id}/addresses/${a.id}`), S.envelope(S.address));
    expect(read.data.address).toBe(a.address);

    // The sweep is signed with the derived key: it succeeds only if the address is really that child's.
    const usdt = asset(w, 'USDT');
    const deposit = ok(
      await api('POST', '/control/deposits', { body: { addressId: a.id, assetId: usdt.id, amount: '12' } }),
      S.envelope(S.transaction),
    );
    await sandbox.drain();
    const done = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${deposit.data.id}`),
      S.envelope(S.transaction),
    );
    expect(done.data).toMatchObject({
      status: 'SUCCESS',
      assetSwept: true,
      assetSweptSenderAddress: a.address,
      assetSweptRecipientAddress: w.address,
    });
    expect(await readBalance(w, 'USDT', a.address)).toBe(0n);
  });

  it('a deposit to a disableAutoSweep address stays there; auto-settlement rules forward matching deposits', async () => {
    const child = funded(w, 2);
    const usdc = asset(w, 'USDC');
    const before = await readBalance(w, 'USDC', child.address);
    const res = ok(
      await api('POST', '/control/deposits', {
        body: { addressId: child.id, assetId: usdc.id, amount: '40' },
      }),
      S.envelope(S.transaction),
    );
    await sandbox.drain();
    const done = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${res.data.id}`),
      S.envelope(S.transaction),
    );
    expect(done.data).toMatchObject({ status: 'SUCCESS', assetSwept: false });
    expect(await readBalance(w, 'USDC', child.address)).toBe(before + 40_000_000n);

    // The seeded wallet-level rule forwards USDC deposits of 10,000 to 1,000,000 (wallet 0 has it active).
    const big = ok(
      await api('POST', '/control/deposits', {
        body: { addressId: sweeping(w, 1).id, assetId: usdc.id, amount: '20000' },
      }),
      S.envelope(S.transaction),
    );
    await sandbox.drain();
    const settlements = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions?type=WITHDRAW&limit=20`),
      S.pagedEnvelope(S.transaction),
    );
    const forwarded = settlements.data.find((t) => t.metadata?.depositId === big.data.id);
    expect(forwarded).toMatchObject({ status: 'SUCCESS', amount: '20000', senderAddress: w.address });
  });

  it('a failed delivery is logged with the status and text, retried, then resent by #2', async () => {
    receiverStatus = 500;
    const child = funded(w, 0);
    const res = ok(
      await api('POST', '/control/deposits', {
        body: { addressId: child.id, assetId: asset(w, 'ETH').id, amount: '0.5' },
      }),
      S.envelope(S.transaction),
    );
    await sandbox.drain();
    const failedLogs = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${res.data.id}/webhooks`),
      S.envelope(z.array(S.webhookLog)),
    );
    expect(failedLogs.data).toHaveLength(1);
    // One attempt plus the two retries of webhookRetryMs.
    expect(failedLogs.data[0]).toMatchObject({
      event: 'deposit.success',
      status: 'failed',
      attempts: 3,
      response: { status: 500, text: 'receiver broke' },
    });

    receiverStatus = 200;
    const resent = ok(
      await api('POST', `/v1/wallets/${w.id}/transactions/webhooks/resend`, { body: { id: res.data.id } }),
      S.envelope(S.transaction),
      'Transaction fetched successfully',
    );
    expect(resent.data.id).toBe(res.data.id);
    await sandbox.drain();
    const after = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${res.data.id}/webhooks`),
      S.envelope(z.array(S.webhookLog)),
    );
    expect(after.data).toHaveLength(2);
    expect(after.data[1]).toMatchObject({ status: 'success', attempts: 1, response: 'received' });

    const page = ok(
      await api('GET', `/v1/wallets/${w.id}/webhooks?limit=5&page=1`),
      S.pagedEnvelope(S.webhookLog),
      'Webhooks fetched successfully',
    );
    expect(page.data).toHaveLength(5);
    expect(page.meta.totalItems).toBeGreaterThan(50);
    const seededFailures = ok(
      await api('GET', `/v1/wallets/${w.id}/webhooks?limit=500`),
      S.pagedEnvelope(S.webhookLog),
    );
    expect(seededFailures.data.some((l) => l.status === 'failed')).toBe(true);
  });
});

describe('contracts', () => {
  const call = (wallet: Wallet, method: string, parameters: unknown[] = [], token = 'USDC') => ({
    address: asset(wallet, token).address,
    method,
    abi,
    parameters,
  });

  it('#18 reads ERC-20 state in single and batch form', async () => {
    const single = ok(
      await api('POST', `/v1/wallets/${w.id}/contracts/read`, { body: { calls: [call(w, 'symbol')] } }),
      S.envelope(S.contractReadSingle),
      'Contract read successfully',
    );
    expect(single.data).toBe('USDC');
    const mintAbi = [
      {
        type: 'function',
        name: 'mint',
        inputs: [{ name: 'to', type: 'address' }],
        outputs: [],
        stateMutability: 'nonpayable',
      },
    ];
    const batch = ok(
      await api('POST', `/v1/wallets/${w.id}/contracts/read`, {
        body: {
          calls: [
            call(w, 'decimals'),
            call(w, 'notInAbi'),
            { address: asset(w, 'USDC').address, method: 'mint', abi: mintAbi, parameters: [RECIPIENT] },
            call(w, 'totalSupply'),
          ],
        },
      }),
      S.envelope(S.contractReadBatch),
      'Batch contract read completed (2/4 successful)',
    );
    expect(batch.data.success).toEqual([
      { index: 0, method: 'decimals', data: '6' },
      { index: 3, method: 'totalSupply', data: expect.stringMatching(/^\d+$/) },
    ]);
    expect(batch.data.errors.map((e) => e.index)).toEqual([1, 2]);
    expect(batch.data.errors[1]!.message).toMatch(/does not implement/);
  });

  it('#19 estimates contract fees in single and batch form', async () => {
    const single = ok(
      await api('POST', `/v1/wallets/${w.id}/contracts/network-fee`, {
        body: { calls: [call(w, 'transfer', [RECIPIENT, '1'])] },
      }),
      S.envelope(S.contractNetworkFeeSingle),
      'Network fee retrieved successfully',
    );
    expect(single.data.fee).toBe('0.00013');
    const batch = ok(
      await api('POST', `/v1/wallets/${w.id}/contracts/network-fee`, {
        body: { calls: [call(w, 'approve', [RECIPIENT, '1']), call(w, 'transfer', ['0x12', '1'])] },
      }),
      S.envelope(S.contractNetworkFeeBatch),
      'Batch network fee retrieved (1/2 successful)',
    );
    expect(batch.data.fees[0]).toMatchObject({ index: 0, method: 'approve', estimatedArrivalTime: 30 });
    expect(batch.data.estimatedArrivalTime).toBe(30);
  });

  it('#16 needs a valid two-factor code, then writes through the ledger', async () => {
    const child = funded(w, 0);
    const url = `/v1/wallets/${w.id}/addresses/${child.id}/contracts/write`;
    const transfer = call(w, 'transfer', [RECIPIENT, '2000000']);
    fail(await api('POST', url, { body: { calls: [transfer] } }), 403, /two-factor/i);
    fail(
      await api('POST', url, { body: { calls: [transfer], code: '000000' } }),
      403,
      /Invalid two-factor code/,
    );
    const before = await readBalance(w, 'USDC', child.address);
    const single = ok(
      await api('POST', url, {
        body: { calls: [{ ...transfer, reference: 'cw-1' }], code: sandbox.totpCode() },
      }),
      S.envelope(S.transaction),
      'Contract write initiated successfully',
    );
    expect(single.data).toMatchObject({
      type: 'CUSTOM_SMART_CONTRACT',
      status: 'PENDING',
      reference: 'cw-1',
    });
    expect(JSON.parse(single.data.reason!)).toMatchObject({ method: 'transfer' });
    await sandbox.drain();
    const settled = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${single.data.id}`),
      S.envelope(S.transaction),
    );
    expect(settled.data.status).toBe('SUCCESS');
    expect(await readBalance(w, 'USDC', child.address)).toBe(before - 2_000_000n);

    const batch = ok(
      await api('POST', url, {
        body: {
          calls: [call(w, 'approve', [RECIPIENT, '5']), call(w, 'transfer', [RECIPIENT, '10000000000000'])],
          code: sandbox.totpCode(),
        },
      }),
      S.envelope(S.contractWriteBatch),
      'Batch contract write initiated successfully',
    );
    expect(batch.data.success).toHaveLength(1);
    expect(batch.data.errors).toEqual([
      expect.objectContaining({ index: 1, message: expect.stringMatching(/exceeds balance/) }),
    ]);
    await sandbox.drain();
    const allowance = await api('POST', `/v1/wallets/${w.id}/contracts/read`, {
      body: { calls: [call(w, 'allowance', [child.address, RECIPIENT])] },
    });
    expect(ok(allowance, S.envelope(S.contractReadSingle)).data).toBe('5');
  });

  it('#17 signs contract calls that parse and recover to the child address', async () => {
    const child = funded(w, 1);
    const url = `/v1/wallets/${w.id}/addresses/${child.id}/contracts/write/sign`;
    fail(
      await api('POST', url, { body: { calls: [call(w, 'approve', [RECIPIENT, '1'])], code: '123' } }),
      403,
    );
    const single = ok(
      await api('POST', url, {
        body: { calls: [call(w, 'approve', [RECIPIENT, '1'])], code: sandbox.totpCode() },
      }),
      S.envelope(S.contractSignedTransaction),
      'Contract write signed successfully',
    );
    expect(single.data).toMatchObject({ type: 'SIGNED', status: 'SUCCESS', confirmed: true });
    const parsed = parseTransaction(single.data.signedTransaction as TransactionSerialized);
    expect(parsed.to?.toLowerCase()).toBe(asset(w, 'USDC').address.toLowerCase());
    expect(
      await recoverTransactionAddress({
        serializedTransaction: single.data.signedTransaction as TransactionSerialized,
      }),
    ).toBe(child.address);
    const batch = ok(
      await api('POST', url, {
        body: {
          calls: [call(w, 'approve', [RECIPIENT, '1']), call(w, 'transfer', ['bad', '1'])],
          code: sandbox.totpCode(),
        },
      }),
      S.envelope(S.contractSignBatch),
      'Batch contract write signed successfully',
    );
    expect(batch.data.success.map((s) => s.index)).toEqual([0]);
    expect(batch.data.errors.map((e) => e.index)).toEqual([1]);
  });
});

describe('swaps and typed data', () => {
  it('quotes a swap: the amount out a swap at that order gives, its minimum, fee and expiry', async () => {
    const child = funded(w, 0);
    const url = `/v1/wallets/${w.id}/addresses/${child.id}/swaps/quote`;
    const body = { amount: '100', fromAssetId: asset(w, 'USDC').id, toAssetId: asset(w, 'USDT').id };
    const asked = Date.now();
    const quote = ok(
      await api('POST', url, { body: { ...body, order: 'RECOMMENDED' } }),
      S.envelope(S.swapQuote),
      'Swap quote fetched successfully',
    ).data;
    // 30 bps of spread for RECOMMENDED; the minimum allows 0.5 % below that.
    expect(quote).toMatchObject({ amount: '100', toAmount: '99.7', minAmount: '99.2015', slippage: '0.5' });
    expect(quote.rate).toBe('0.997');
    expect(quote.networkFee).toMatch(/^0\.\d+$/);
    expect(Date.parse(quote.expiresAt)).toBeGreaterThanOrEqual(asked + 60_000 - 1_000);
    const exact = ok(
      await api('POST', url, { body: { ...body, order: 'NO_SLIPPAGE' } }),
      S.envelope(S.swapQuote),
    ).data;
    expect(exact).toMatchObject({ toAmount: '100', minAmount: '100', slippage: '0' });
    fail(await api('POST', url, { body: { ...body, toAssetId: body.fromAssetId } }), 422, /different/);
  });

  it('#20 swaps at the rate table and settles', async () => {
    const child = funded(w, 0);
    const before = await readBalance(w, 'USDT', child.address);
    const res = ok(
      await api('POST', `/v1/wallets/${w.id}/addresses/${child.id}/swaps/execute`, {
        body: {
          amount: '100',
          fromAssetId: asset(w, 'USDC').id,
          toAssetId: asset(w, 'USDT').id,
          order: 'NO_SLIPPAGE',
          reference: 'swap-1',
          metadata: { purpose: 'test' },
        },
      }),
      S.envelope(S.transaction),
      'Swap transaction created successfully',
    );
    expect(res.data).toMatchObject({
      type: 'SWAP',
      status: 'PENDING',
      rate: '1',
      toAmount: '100',
      toCurrency: 'USDT',
    });
    expect(res.data.toAsset?.symbol).toBe('USDT');
    expect(res.data.toBlockchain?.slug).toBe('ethereum');
    expect(res.data.toWallet?.id).toBe(w.id);
    await sandbox.drain();
    const settled = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${res.data.id}`),
      S.envelope(S.transaction),
    );
    expect(settled.data.status).toBe('SUCCESS');
    expect(await readBalance(w, 'USDT', child.address)).toBe(before + 100_000_000n);
    fail(
      await api('POST', `/v1/wallets/${w.id}/addresses/${child.id}/swaps/execute`, {
        body: { amount: '1', fromAssetId: asset(w, 'USDC').id, toAssetId: asset(w, 'USDC').id },
      }),
      422,
    );
  });

  it('#21 signs typed data that recovers to the signing address', async () => {
    const child = funded(w, 1);
    const typed = {
      domain: {
        chainId: 11155111,
        name: 'USD Coin',
        verifyingContract: asset(w, 'USDC').address,
        version: '2',
      },
      types: {
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      message: {
        owner: child.address,
        spender: RECIPIENT,
        value: '1000000',
        nonce: '0',
        deadline: '1900000000',
      },
    };
    const res = ok(
      await api('POST', `/v1/wallets/${w.id}/addresses/${child.id}/signing/typed-data`, { body: typed }),
      S.envelope(S.typedDataSignedTransaction),
      'Typed data signed successfully',
    );
    const { r, s, signature, v } = res.data.signedTransaction;
    expect(signature.slice(2, 66)).toBe(r.slice(2).padStart(64, '0'));
    expect(signature.slice(66, 130)).toBe(s.slice(2).padStart(64, '0'));
    expect([27, 28]).toContain(v);
    const signer = await recoverTypedDataAddress({
      domain: { ...typed.domain, verifyingContract: getAddress(typed.domain.verifyingContract) },
      types: typed.types,
      primaryType: 'Permit',
      message: { ...typed.message, value: 1000000n, nonce: 0n, deadline: 1900000000n },
      signature: signature as `0x${string}`,
    });
    expect(signer).toBe(child.address);
    fail(
      await api('POST', `/v1/wallets/${w.id}/addresses/${child.id}/signing/typed-data`, {
        body: { ...typed, message: { ...typed.message, value: 'lots' } },
      }),
      422,
    );
  });
});

describe('the typed client over sandbox.fetch', () => {
  it('reads and writes through createCustodyClient', async () => {
    const client = createCustodyClient({ baseUrl: BASE, apiKey: w.apiKey, fetch: sandbox.fetch });
    const wallet = await client.wallets.get({ walletId: w.id });
    expect(wallet.data.id).toBe(w.id);
    expect(wallet.message).toBe('Wallet fetched successfully');
    const page = await client.addresses.listTransactions({
      walletId: w.id,
      addressId: funded(w).id,
      limit: 3,
    });
    expect(page.meta.itemsPerPage).toBe(3);
    const fee = await client.withdraw.networkFee(
      { walletId: w.id },
      { assets: [{ id: asset(w, 'USDC').id, address: RECIPIENT, amount: '1' }] },
    );
    expect(fee.form).toBe('single');
    const read = await client.contracts.read(
      { walletId: w.id },
      { calls: [{ address: asset(w, 'USDC').address, method: 'name', abi: abi as never }] },
    );
    expect(read.form === 'single' && read.data).toBe('USD Coin');
    await expect(client.wallets.get({ walletId: other.id })).rejects.toMatchObject({ status: 403 });
  });
});

describe('OpenAPI', () => {
  it('describes every route as OpenAPI 3.1', async () => {
    const res = await sandbox.handle(new Request(`${BASE}/openapi.json`));
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.values(doc.paths).reduce((n, p) => n + Object.keys(p).length, 0);
    expect(operations).toBeGreaterThanOrEqual(29);
    expect(doc.paths['/v1/wallets/{walletId}/withdraw']?.post).toBeDefined();
  });
});

describe('single-object bodies, as clients of the real service send them (#12 to #19)', () => {
  const usdc = () => asset(w, 'USDC');
  const bareCall = (method: string, parameters: unknown[] = []) => ({
    address: usdc().address,
    method,
    abi,
    parameters,
  });

  it('#12 and #13 take {assetId, address, amount} and answer one Transaction', async () => {
    const master = ok(
      await api('POST', `/v1/wallets/${w.id}/withdraw`, {
        body: { assetId: usdc().id, address: RECIPIENT, amount: '1.25', reference: 'single-12' },
      }),
      S.envelope(S.transaction),
      'Withdrawal request initiated successfully',
    );
    expect(master.data).toMatchObject({ type: 'WITHDRAW', status: 'PENDING', reference: 'single-12' });
    expect(master.data.amount).toBe('1.25');
    const child = funded(w, 1);
    const fromChild = ok(
      await api('POST', `/v1/wallets/${w.id}/addresses/${child.id}/withdraw`, {
        body: { assetId: usdc().id, address: RECIPIENT, amount: '0.5', reference: 'single-13' },
      }),
      S.envelope(S.transaction),
      'Withdrawal request initiated successfully',
    );
    expect(fromChild.data).toMatchObject({ type: 'WITHDRAW', reference: 'single-13' });
    expect(fromChild.data.senderAddress).toBe(child.address);
    const listed = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions?reference=single-12`),
      S.envelope(z.array(S.transaction)),
    );
    expect(listed.data.map((t) => t.reference)).toEqual(['single-12']);
  });

  it('#14 signs one withdrawal and answers the signed transaction; a bad one is refused with the reason', async () => {
    const signed = ok(
      await api('POST', `/v1/wallets/${w.id}/withdraw/sign`, {
        body: { assetId: usdc().id, address: RECIPIENT, amount: '2' },
      }),
      S.envelope(S.transaction),
      'Withdrawal signed successfully',
    );
    expect(signed.data.type).toBe('SIGNED');
    const serialized = (signed.data as unknown as { signedTransaction: TransactionSerialized })
      .signedTransaction;
    expect(await recoverTransactionAddress({ serializedTransaction: serialized })).toBe(w.address);
    fail(
      await api('POST', `/v1/wallets/${w.id}/withdraw/sign`, {
        body: { assetId: usdc().id, address: 'not-an-address', amount: '2' },
      }),
      422,
      /not a valid EVM address/,
    );
  });

  it('#15 takes {assetId, address, amount} and answers the single fee form', async () => {
    const fee = ok(
      await api('POST', `/v1/wallets/${w.id}/withdraw/network-fee`, {
        body: { assetId: usdc().id, address: RECIPIENT, amount: '5' },
      }),
      S.envelope(S.withdrawNetworkFeeSingle),
      'Network fee fetched successfully',
    );
    expect(fee.data.networkFee).toBe('0.00013');
  });

  it('#16 to #19 take a bare call item and answer in the single form', async () => {
    const read = ok(
      await api('POST', `/v1/wallets/${w.id}/contracts/read`, { body: bareCall('symbol') }),
      S.envelope(S.contractReadSingle),
      'Contract read successfully',
    );
    expect(read.data).toBe('USDC');
    const fee = ok(
      await api('POST', `/v1/wallets/${w.id}/contracts/network-fee`, {
        body: bareCall('transfer', [RECIPIENT, '1']),
      }),
      S.envelope(S.contractNetworkFeeSingle),
      'Network fee retrieved successfully',
    );
    expect(fee.data.fee).toBe('0.00013');
    const child = funded(w, 1);
    const base = `/v1/wallets/${w.id}/addresses/${child.id}/contracts/write`;
    fail(await api('POST', base, { body: bareCall('transfer', [RECIPIENT, '1']) }), 403, /two-factor/i);
    const write = ok(
      await api('POST', base, {
        body: { ...bareCall('transfer', [RECIPIENT, '1']), reference: 'single-16', code: sandbox.totpCode() },
      }),
      S.envelope(S.transaction),
      'Contract write initiated successfully',
    );
    expect(write.data).toMatchObject({
      type: 'CUSTOM_SMART_CONTRACT',
      status: 'PENDING',
      reference: 'single-16',
    });
    const sign = ok(
      await api('POST', `${base}/sign`, {
        body: { ...bareCall('approve', [RECIPIENT, '1']), code: sandbox.totpCode() },
      }),
      S.envelope(S.transaction),
      'Contract write signed successfully',
    );
    expect(sign.data.type).toBe('SIGNED');
  });

  it('400 for a body that is neither form', async () => {
    fail(
      await api('POST', `/v1/wallets/${w.id}/withdraw`, { body: { address: RECIPIENT, amount: '1' } }),
      400,
    );
    fail(await api('POST', `/v1/wallets/${w.id}/contracts/read`, { body: { method: 'symbol' } }), 400);
  });
});

describe("Blockradar's documented endpoints beyond the spec's 23", () => {
  it('reads the balance of one asset, of the master wallet and of a child, by either asset id', async () => {
    const usdc = asset(w, 'USDC');
    const all = ok(
      await api('GET', `/v1/wallets/${w.id}/balances`),
      S.envelope(z.array(S.assetBalance)),
      'Wallet balances fetched successfully',
    );
    const listed = all.data.find((b) => b.asset.id === usdc.id)!;
    expect(listed.asset).toMatchObject({ createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect(Date.parse(listed.asset.createdAt!)).not.toBeNaN();
    for (const id of [usdc.id, usdc.assetId]) {
      const one = ok(
        await api('GET', `/v1/wallets/${w.id}/balance?assetId=${id}`),
        S.envelope(S.assetBalance),
        'Wallet balance fetched successfully',
      );
      expect(one.data).toEqual(listed);
    }
    expect(BigInt(Math.round(Number(listed.balance) * 1e6))).toBe(await readBalance(w, 'USDC', w.address));

    const child = funded(w, 2);
    const childOne = ok(
      await api('GET', `/v1/wallets/${w.id}/addresses/${child.id}/balance?assetId=${usdc.id}`),
      S.envelope(S.assetBalance),
      'Address balance fetched successfully',
    );
    expect(childOne.data.asset.asset.symbol).toBe('USDC');
    expect(BigInt(Math.round(Number(childOne.data.balance) * 1e6))).toBe(
      await readBalance(w, 'USDC', child.address),
    );
    expect(childOne.data.balance).not.toBe(listed.balance);

    fail(await api('GET', `/v1/wallets/${w.id}/balance`), 422, /assetId is required/);
    fail(
      await api('GET', `/v1/wallets/${w.id}/balance?assetId=${asset(other, 'USDC').id}`),
      422,
      /not an asset/,
    );
    fail(
      await api('GET', `/v1/wallets/${w.id}/addresses/${other.addresses[0]!.id}/balance?assetId=${usdc.id}`),
      404,
    );
  });

  it('signs withdrawals from a child address: they recover to the child, and nothing is broadcast', async () => {
    const child = funded(w, 1);
    const url = `/v1/wallets/${w.id}/addresses/${child.id}/withdraw/sign`;
    // Earlier tests' withdrawals settle first, so any later change could only come from these signatures.
    await sandbox.drain();
    const before = await readBalance(w, 'USDC', RECIPIENT);
    const batch = ok(
      await api('POST', url, {
        body: {
          assets: [
            { id: asset(w, 'USDC').id, address: RECIPIENT, amount: '1.5', reference: 'child-sign-1' },
            { id: asset(w, 'USDC').id, address: 'nowhere', amount: '1' },
          ],
        },
      }),
      S.envelope(S.withdrawSignResult),
      'Batch withdrawal signed (1/2 successful)',
    );
    expect(batch.data.errors).toEqual([expect.objectContaining({ index: 1 })]);
    const signed = batch.data.success[0]!.signedTransaction as TransactionSerialized;
    expect(await recoverTransactionAddress({ serializedTransaction: signed })).toBe(child.address);
    const record = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${batch.data.success[0]!.id}`),
      S.envelope(S.transaction),
    );
    expect(record.data).toMatchObject({
      type: 'SIGNED',
      status: 'SUCCESS',
      reference: 'child-sign-1',
      addressId: child.id,
      senderAddress: child.address,
    });
    const single = ok(
      await api('POST', url, { body: { assetId: asset(w, 'USDC').id, address: RECIPIENT, amount: '2' } }),
      S.envelope(S.transaction),
      'Withdrawal signed successfully',
    );
    expect(single.data.senderAddress).toBe(child.address);
    await sandbox.drain();
    expect(await readBalance(w, 'USDC', RECIPIENT)).toBe(before);
    fail(
      await api('POST', `/v1/wallets/${w.id}/addresses/${external(w).id}/withdraw/sign`, {
        body: { assetId: asset(w, 'USDC').id, address: RECIPIENT, amount: '1' },
      }),
      422,
      /external/,
    );
  });

  it("estimates withdrawal fees from a child address with the payer's native balance, in USD and arrival time", async () => {
    const child = funded(w, 0);
    const item = { id: asset(w, 'USDC').id, address: RECIPIENT, amount: '5' };
    const url = `/v1/wallets/${w.id}/addresses/${child.id}/withdraw/network-fee`;
    const single = ok(
      await api('POST', url, { body: { assets: [item] } }),
      S.envelope(S.withdrawNetworkFeeSingle),
      'Network fee fetched successfully',
    );
    // 65,000 gas at 2 gwei, at 3,000 USD per ETH.
    expect(single.data).toMatchObject({
      networkFee: '0.00013',
      networkFeeInUSD: '0.39',
      estimatedArrivalTime: 30,
    });
    const childEth = ok(
      await api('GET', `/v1/wallets/${w.id}/addresses/${child.id}/balance?assetId=${asset(w, 'ETH').id}`),
      S.envelope(S.assetBalance),
    );
    expect(single.data.nativeBalance).toBe(childEth.data.balance);
    const master = ok(
      await api('POST', `/v1/wallets/${w.id}/withdraw/network-fee`, { body: { assets: [item] } }),
      S.envelope(S.withdrawNetworkFeeSingle),
    );
    expect(master.data).toMatchObject({ networkFeeInUSD: '0.39', estimatedArrivalTime: 30 });
    expect(master.data.nativeBalance).not.toBe(single.data.nativeBalance);

    const batch = ok(
      await api('POST', url, {
        body: { assets: [item, { ...item, id: asset(w, 'ETH').id }, { ...item, amount: '-1' }] },
      }),
      S.envelope(S.withdrawNetworkFeeBatch),
      'Network fee fetched successfully',
    );
    expect(batch.data.fees.map((f) => f.networkFeeInUSD)).toEqual(['0.39', '0.12']);
    expect(batch.data).toMatchObject({ totalNetworkFee: '0.000172', estimatedArrivalTime: 60 });
    expect(batch.data.errors).toEqual([expect.objectContaining({ index: 2 })]);
  });

  it("quotes a swap with its impact, the payer's native balance and the ids as sent", async () => {
    const child = funded(w, 0);
    const usdc = asset(w, 'USDC');
    const usdt = asset(w, 'USDT');
    const body = { amount: '100', fromAssetId: usdc.id, toAssetId: usdt.id, order: 'RECOMMENDED' };
    const quote = ok(
      await api('POST', `/v1/wallets/${w.id}/addresses/${child.id}/swaps/quote`, { body }),
      S.envelope(S.swapQuote),
      'Swap quote fetched successfully',
    ).data;
    // 30 bps of spread for RECOMMENDED: 0.3 % of 100 USD.
    expect(quote).toMatchObject({
      fromAssetId: usdc.id,
      toAssetId: usdt.id,
      toAmount: '99.7',
      impact: '0.3',
      impactInUSD: '0.3',
      transactionFee: '0',
    });
    const childEth = ok(
      await api('GET', `/v1/wallets/${w.id}/addresses/${child.id}/balance?assetId=${asset(w, 'ETH').id}`),
      S.envelope(S.assetBalance),
    );
    expect(quote.nativeBalance).toBe(childEth.data.balance);
    expect(quote.nativeBalanceInUSD).toBe(childEth.data.convertedBalance);
    const byAssetIds = ok(
      await api('POST', `/v1/wallets/${w.id}/addresses/${child.id}/swaps/quote`, {
        body: { ...body, fromAssetId: usdc.assetId, toAssetId: usdt.assetId, order: 'NO_SLIPPAGE' },
      }),
      S.envelope(S.swapQuote),
    ).data;
    expect(byAssetIds).toMatchObject({
      fromAssetId: usdc.assetId,
      toAssetId: usdt.assetId,
      impact: '0',
      impactInUSD: '0',
    });
  });

  it('quotes and executes a swap from the master wallet; it settles on the master address', async () => {
    const usdc = asset(w, 'USDC');
    const usdt = asset(w, 'USDT');
    const body = { amount: '50', fromAssetId: usdc.id, toAssetId: usdt.id, order: 'CHEAPEST' };
    const quote = ok(
      await api('POST', `/v1/wallets/${w.id}/swaps/quote`, { body }),
      S.envelope(S.swapQuote),
      'Swap quote fetched successfully',
    ).data;
    // 20 bps of spread for CHEAPEST.
    expect(quote).toMatchObject({ toAmount: '49.9', impact: '0.2', impactInUSD: '0.1' });
    const masterEth = ok(
      await api('GET', `/v1/wallets/${w.id}/balance?assetId=${asset(w, 'ETH').id}`),
      S.envelope(S.assetBalance),
    );
    expect(quote.nativeBalance).toBe(masterEth.data.balance);

    const usdtBefore = await readBalance(w, 'USDT', w.address);
    const usdcBefore = await readBalance(w, 'USDC', w.address);
    const res = ok(
      await api('POST', `/v1/wallets/${w.id}/swaps/execute`, {
        body: { ...body, reference: 'master-swap-1', metadata: { desk: 'treasury' } },
      }),
      S.envelope(S.transaction),
      'Swap transaction created successfully',
    );
    expect(res.data).toMatchObject({
      type: 'SWAP',
      status: 'PENDING',
      reference: 'master-swap-1',
      addressId: null,
      senderAddress: w.address,
      toAmount: quote.toAmount,
      metadata: { desk: 'treasury' },
    });
    await sandbox.drain();
    const settled = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${res.data.id}`),
      S.envelope(S.transaction),
    );
    expect(settled.data.status).toBe('SUCCESS');
    expect(await readBalance(w, 'USDT', w.address)).toBe(usdtBefore + 49_900_000n);
    expect(await readBalance(w, 'USDC', w.address)).toBe(usdcBefore - 50_000_000n);
    fail(
      await api('POST', `/v1/wallets/${w.id}/swaps/execute`, {
        body: { ...body, toAssetId: usdc.id },
      }),
      422,
      /different/,
    );
  });

  it('renames the wallet and changes its description; an empty update is refused', async () => {
    const url = `/v1/wallets/${w.id}`;
    const before = ok(await api('GET', url), S.envelope(S.wallet)).data;
    const res = ok(
      await api('PATCH', url, { body: { name: 'Treasury (renamed)', description: 'Payouts desk' } }),
      S.envelope(S.wallet),
      'Wallet updated successfully',
    );
    expect(res.data).toMatchObject({ id: w.id, name: 'Treasury (renamed)', description: 'Payouts desk' });
    expect(res.data).not.toHaveProperty('privateKey');
    expect(Date.parse(res.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
    const read = ok(await api('GET', url), S.envelope(S.wallet)).data;
    expect(read).toMatchObject({ name: 'Treasury (renamed)', description: 'Payouts desk' });
    // The key still authenticates against the updated wallet.
    expect(read.assets.map((a) => a.id).sort()).toEqual(before.assets.map((a) => a.id).sort());
    fail(await api('PATCH', url, { body: {} }), 422, /Nothing to update/);
    fail(await api('PATCH', url, { body: { name: '  ' } }), 422, /name/);
    fail(await api('PATCH', url, { body: { name: 7 } }), 400);
    fail(await api('PATCH', `/v1/wallets/${other.id}`, { body: { name: 'x' } }), 403);
    const restored = ok(
      await api('PATCH', url, { body: { name: before.name, description: before.description } }),
      S.envelope(S.wallet),
    );
    expect(restored.data.name).toBe(before.name);
  });

  it("updates an address's name, metadata, sweep and gasless settings; deposits and fees follow them", async () => {
    const created = ok(
      await api('POST', `/v1/wallets/${w.id}/addresses`, { body: { name: 'to update' } }),
      S.envelope(S.address),
    ).data;
    expect(created.configurations).toMatchObject({ disableAutoSweep: false, enableGaslessWithdraw: false });
    const url = `/v1/wallets/${w.id}/addresses/${created.id}`;
    const res = ok(
      await api('PATCH', url, {
        body: {
          name: 'Customer 42',
          metadata: { customerId: 42 },
          disableAutoSweep: true,
          enableGaslessWithdraw: true,
        },
      }),
      S.envelope(S.address),
      'Address updated successfully',
    );
    expect(res.data).toMatchObject({ id: created.id, name: 'Customer 42', metadata: { customerId: 42 } });
    expect(res.data.configurations).toMatchObject({
      disableAutoSweep: true,
      enableGaslessWithdraw: true,
      aml: created.configurations.aml,
    });
    const read = ok(await api('GET', url), S.envelope(S.address)).data;
    expect(read).toEqual(res.data);

    // A field left out keeps its value.
    const renamed = ok(await api('PATCH', url, { body: { name: 'Customer 42b' } }), S.envelope(S.address));
    expect(renamed.data).toMatchObject({ name: 'Customer 42b', metadata: { customerId: 42 } });
    expect(renamed.data.configurations.disableAutoSweep).toBe(true);

    // Sweeping is off now: the deposit stays on the address.
    const usdt = asset(w, 'USDT');
    const deposit = ok(
      await api('POST', '/control/deposits', {
        body: { addressId: created.id, assetId: usdt.id, amount: '12' },
      }),
      S.envelope(S.transaction),
    );
    await sandbox.drain();
    const settled = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${deposit.data.id}`),
      S.envelope(S.transaction),
    );
    expect(settled.data).toMatchObject({ status: 'SUCCESS', assetSwept: false });
    expect(await readBalance(w, 'USDT', created.address)).toBe(12_000_000n);

    // Gasless: the master wallet pays the fee, so the estimate shows its native balance.
    const fee = ok(
      await api('POST', `${url}/withdraw/network-fee`, {
        body: { assetId: usdt.id, address: RECIPIENT, amount: '1' },
      }),
      S.envelope(S.withdrawNetworkFeeSingle),
    );
    const masterEth = ok(
      await api('GET', `/v1/wallets/${w.id}/balance?assetId=${asset(w, 'ETH').id}`),
      S.envelope(S.assetBalance),
    );
    expect(fee.data.nativeBalance).toBe(masterEth.data.balance);

    fail(await api('PATCH', url, { body: {} }), 422, /Nothing to update/);
    fail(await api('PATCH', url, { body: { disableAutoSweep: 'yes' } }), 400);
    fail(
      await api('PATCH', `/v1/wallets/${w.id}/addresses/${other.addresses[0]!.id}`, { body: { name: 'x' } }),
      404,
    );
  });

  it('writes to a contract from the master wallet, with the two-factor code, through the ledger', async () => {
    const url = `/v1/wallets/${w.id}/contracts/write`;
    const transfer = {
      address: asset(w, 'USDC').address,
      method: 'transfer',
      abi,
      parameters: [RECIPIENT, '3000000'],
    };
    fail(await api('POST', url, { body: { calls: [transfer] } }), 403, /two-factor/i);
    await sandbox.drain();
    const masterBefore = await readBalance(w, 'USDC', w.address);
    const recipientBefore = await readBalance(w, 'USDC', RECIPIENT);
    const res = ok(
      await api('POST', url, {
        body: { calls: [{ ...transfer, reference: 'master-cw-1' }], code: sandbox.totpCode() },
      }),
      S.envelope(S.transaction),
      'Contract write initiated successfully',
    );
    expect(res.data).toMatchObject({
      type: 'CUSTOM_SMART_CONTRACT',
      status: 'PENDING',
      reference: 'master-cw-1',
      addressId: null,
      senderAddress: w.address,
    });
    await sandbox.drain();
    const settled = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions/${res.data.id}`),
      S.envelope(S.transaction),
    );
    expect(settled.data.status).toBe('SUCCESS');
    expect(await readBalance(w, 'USDC', w.address)).toBe(masterBefore - 3_000_000n);
    expect(await readBalance(w, 'USDC', RECIPIENT)).toBe(recipientBefore + 3_000_000n);
    const batch = ok(
      await api('POST', url, {
        body: {
          calls: [transfer, { ...transfer, method: 'symbol', parameters: [] }],
          code: sandbox.totpCode(),
        },
      }),
      S.envelope(S.contractWriteBatch),
      'Batch contract write initiated successfully',
    );
    expect(batch.data.success).toHaveLength(1);
    expect(batch.data.errors).toEqual([
      expect.objectContaining({ index: 1, message: expect.stringMatching(/does not change state/) }),
    ]);
  });

  it('reads contracts and estimates their fees from a child address, as that address (msg.sender, gas payer)', async () => {
    const child = funded(w, 0);
    const usdc = asset(w, 'USDC');
    const base = `/v1/wallets/${w.id}/addresses/${child.id}/contracts`;
    const call = (method: string, parameters: unknown[] = []) => ({
      address: usdc.address,
      method,
      abi,
      parameters,
    });
    const read = ok(
      await api('POST', `${base}/read`, { body: { calls: [call('balanceOf', [child.address])] } }),
      S.envelope(S.contractReadSingle),
      'Contract read successfully',
    );
    expect(BigInt(read.data)).toBe(await readBalance(w, 'USDC', child.address));
    const batch = ok(
      await api('POST', `${base}/read`, { body: { calls: [call('decimals'), call('nothing')] } }),
      S.envelope(S.contractReadBatch),
      'Batch contract read completed (1/2 successful)',
    );
    expect(batch.data.success).toEqual([{ index: 0, method: 'decimals', data: '6' }]);

    const childEth = ok(
      await api('GET', `/v1/wallets/${w.id}/addresses/${child.id}/balance?assetId=${asset(w, 'ETH').id}`),
      S.envelope(S.assetBalance),
    );
    const fee = ok(
      await api('POST', `${base}/network-fee`, { body: { calls: [call('transfer', [RECIPIENT, '1'])] } }),
      S.envelope(S.contractNetworkFeeSingle),
      'Network fee retrieved successfully',
    );
    expect(fee.data).toEqual({ balance: childEth.data.balance, fee: '0.00013' });
    const masterFee = ok(
      await api('POST', `/v1/wallets/${w.id}/contracts/network-fee`, {
        body: { calls: [call('transfer', [RECIPIENT, '1'])] },
      }),
      S.envelope(S.contractNetworkFeeSingle),
    );
    expect(masterFee.data.balance).not.toBe(fee.data.balance);
    const fees = ok(
      await api('POST', `${base}/network-fee`, {
        body: { calls: [call('approve', [RECIPIENT, '1']), call('transfer', ['0x12', '1'])] },
      }),
      S.envelope(S.contractNetworkFeeBatch),
      'Batch network fee retrieved (1/2 successful)',
    );
    expect(fees.data.fees[0]).toMatchObject({ index: 0, nativeBalance: childEth.data.balance });
    fail(
      await api('POST', `/v1/wallets/${w.id}/addresses/${other.addresses[0]!.id}/contracts/read`, {
        body: { calls: [call('decimals')] },
      }),
      404,
    );
  });

  it("lists the supported assets, each with its blockchain, and the blockchains, with any wallet's key", async () => {
    const assets = ok(
      await api('GET', '/v1/assets', { key: other.apiKey }),
      S.envelope(z.array(S.supportedAsset)),
      'Assets fetched successfully',
    );
    // Every asset of every wallet is a supported asset, with the same fields the wallet shows it with.
    for (const wallet of [w, other])
      for (const held of wallet.assets) {
        const listed = assets.data.find((a) => a.id === held.assetId);
        expect(listed, held.symbol).toMatchObject({ symbol: held.symbol, address: held.address });
      }
    expect(new Set(assets.data.map((a) => a.id)).size).toBe(assets.data.length);
    const chains = ok(
      await api('GET', '/v1/blockchains'),
      S.envelope(z.array(S.blockchain)),
      'Blockchains fetched successfully',
    );
    expect(chains.data.map((c) => c.id).sort()).toEqual(
      [...new Set(assets.data.map((a) => a.blockchain.id))].sort(),
    );
    const wallet = ok(await api('GET', `/v1/wallets/${w.id}`), S.envelope(S.wallet));
    expect(chains.data.find((c) => c.id === wallet.data.blockchain.id)).toEqual(wallet.data.blockchain);
    fail(await api('GET', '/v1/assets', { key: null }), 401);
  });

  it('rates assets in USD, all priced assets or the ones asked for; another currency is refused', async () => {
    const all = ok(
      await api('GET', '/v1/assets/rates'),
      S.envelope(S.assetRates),
      'Rates retrieved successfully',
    );
    expect(all.data).toMatchObject({ USDC: { USD: 1 }, ETH: { USD: 3000 } });
    const some = ok(
      await api('GET', '/v1/assets/rates?assets=usdc,ETH,NOPE&currency=USD'),
      S.envelope(S.assetRates),
    );
    expect(some.data).toEqual({ ETH: { USD: 3000 }, USDC: { USD: 1 } });
    fail(await api('GET', '/v1/assets/rates?assets=ETH&currency=EUR'), 422, /EUR is not supported/);
  });

  it('a withdrawal of several items creates every transaction, answers with the first (spec #12) and names each under batch', async () => {
    const usdc = asset(w, 'USDC');
    const res = ok(
      await api('POST', `/v1/wallets/${w.id}/withdraw`, {
        body: {
          assets: [
            { id: usdc.id, address: RECIPIENT, amount: '1', reference: 'multi-a' },
            { id: usdc.id, address: RECIPIENT, amount: '2', reference: 'multi-b' },
          ],
        },
      }),
      S.envelope(S.withdrawal),
      'Withdrawal request initiated successfully',
    );
    const { batch, ...first } = res.data;
    expect(first).toMatchObject({ reference: 'multi-a', amount: '1' });
    expect(batch?.map((t) => [t.reference, t.amount])).toEqual([
      ['multi-a', '1'],
      ['multi-b', '2'],
    ]);
    expect(batch?.[0]).toEqual(first);
    const second = ok(
      await api('GET', `/v1/wallets/${w.id}/transactions?reference=multi-b`),
      S.pagedEnvelope(S.transaction),
    );
    expect(second.data.map((t) => [t.id, t.type, t.amount])).toEqual([[batch?.[1]?.id, 'WITHDRAW', '2']]);
  });
});
