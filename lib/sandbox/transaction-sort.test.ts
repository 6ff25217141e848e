// The wallet-wide transaction list's `sort` extension: every page of the whole result in the asked order,
// amounts compared as numbers, missing values last; #3 keeps the spec's date order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/connection';
import { openTestHandle } from '@/test/db';
import { createSandbox, SANDBOX_MIGRATIONS, type Sandbox, type SandboxCredentials } from './index';

const BASE = 'http://localhost:3000/sandbox';

let database: DatabaseHandle;
let closeDatabase: (() => Promise<void>) | undefined;
let sandbox: Sandbox;
let wallet: SandboxCredentials['wallets'][number];
let dataDir: string;

interface Row {
  id: string;
  amount: string | null;
  amountUSD: string | null;
  type: string;
  createdAt: string;
}
interface Page {
  data: Row[];
  meta: { totalItems: number; totalPages: number; currentPage: number };
}

async function get(pathname: string): Promise<{ status: number; body: Page & { message: string } }> {
  const res = await sandbox.handle(
    new Request(`${BASE}${pathname}`, { headers: { 'x-api-key': wallet.apiKey } }),
  );
  return { status: res.status, body: (await res.json()) as Page & { message: string } };
}

/** Every row of the wallet-wide list for a query, page by page. */
async function everyRow(query: string, limit = 7): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page += 1) {
    const { status, body } = await get(
      `/v1/wallets/${wallet.id}/transactions?${query}&limit=${limit}&page=${page}`,
    );
    expect(status).toBe(200);
    rows.push(...body.data);
    if (page >= body.meta.totalPages) return rows;
  }
}

const amountOf = (row: Row) => (row.amount === null ? null : Number(row.amount));

async function deposit(addressId: string, assetId: string, amount: string) {
  const res = await sandbox.handle(
    new Request(`${BASE}/control/deposits`, {
      method: 'POST',
      headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ addressId, assetId, amount }),
    }),
  );
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'sandbox-sort-'));
  const opened = await openTestHandle([SANDBOX_MIGRATIONS]);
  database = opened.handle;
  closeDatabase = opened.close;
  sandbox = await createSandbox({
    db: database.db,
    dbKind: database.kind,
    encryptionKey: Buffer.alloc(32, 5),
    seed: 'transaction-sort-tests',
    blockTimeMs: 1000,
    webhookUrl: 'http://127.0.0.1:9/hooks',
    webhookRetryMs: [10],
    signatureHeader: 'x-test-signature',
    baseUrl: BASE,
    dataDir,
  });
  const creds = await sandbox.credentials();
  wallet = creds.wallets[0] as SandboxCredentials['wallets'][number];
  const address = wallet.addresses.find((a) => a.type === 'INTERNAL' && a.disableAutoSweep);
  const asset = wallet.assets[0];
  if (!address || !asset) throw new Error('the seed has no child address or asset');
  // Amounts whose string order differs from their numeric order ("9.5" > "24421.45" as text).
  for (const amount of ['9.5', '24150.56', '24421.45', '100']) await deposit(address.id, asset.id, amount);
  await sandbox.drain();
});

afterAll(async () => {
  await sandbox?.stop();
  await closeDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /v1/wallets/{walletId}/transactions?sort=', () => {
  it('orders the whole result by amount, as numbers, largest first, empty amounts last', async () => {
    const rows = await everyRow('sort=amount&order=DESC');
    const { body } = await get(`/v1/wallets/${wallet.id}/transactions?limit=500`);
    expect(rows).toHaveLength(body.meta.totalItems);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    const amounts = rows.map(amountOf);
    const numbers = amounts.filter((a): a is number => a !== null);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    // Nulls (if any) only after the last number.
    const firstNull = amounts.indexOf(null);
    if (firstNull >= 0) expect(amounts.slice(firstNull).every((a) => a === null)).toBe(true);
    expect(numbers[0]).toBeGreaterThanOrEqual(24421.45);
    expect(numbers.indexOf(24421.45)).toBeLessThan(numbers.indexOf(24150.56));
    expect(numbers.indexOf(24150.56)).toBeLessThan(numbers.indexOf(100));
    expect(numbers.indexOf(100)).toBeLessThan(numbers.indexOf(9.5));
  });

  it('orders ascending with order=ASC, still with empty amounts last', async () => {
    const amounts = (await everyRow('sort=amount&order=ASC')).map(amountOf);
    const numbers = amounts.filter((a): a is number => a !== null);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    const firstNull = amounts.indexOf(null);
    if (firstNull >= 0) expect(amounts.slice(firstNull).every((a) => a === null)).toBe(true);
  });

  it('sorts by USD value and by type over every page', async () => {
    const usd = (await everyRow('sort=amountUSD&order=DESC'))
      .map((r) => (r.amountUSD === null ? null : Number(r.amountUSD)))
      .filter((a): a is number => a !== null);
    expect(usd.length).toBeGreaterThan(0);
    expect(usd).toEqual([...usd].sort((a, b) => b - a));
    const types = (await everyRow('sort=type&order=ASC')).map((r) => r.type);
    expect(types).toEqual([...types].sort());
  });

  it('keeps date order without sort, and refuses an unknown field', async () => {
    const dates = (await everyRow('order=DESC')).map((r) => Date.parse(r.createdAt));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    const { status, body } = await get(`/v1/wallets/${wallet.id}/transactions?sort=reference`);
    expect(status).toBe(422);
    expect(body.message).toContain('sort must be one of');
  });

  it('leaves #3 in date order (the spec has no sort there)', async () => {
    const address = wallet.addresses.find((a) => a.type === 'INTERNAL' && a.disableAutoSweep);
    const { status, body } = await get(
      `/v1/wallets/${wallet.id}/addresses/${address?.id}/transactions?sort=amount&order=DESC&limit=100`,
    );
    expect(status).toBe(200);
    const dates = body.data.map((r) => Date.parse(r.createdAt));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
  });
});
