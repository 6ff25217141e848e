// The wallet's analytics total (#4) against the per-asset USD values of the balances read, after whole
// and fractional deposits: the two must be the same figure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/connection';
import { openTestHandle } from '@/test/db';
import { createSandbox, SANDBOX_MIGRATIONS, type Sandbox, type SandboxCredentials } from './index';
import { centsToDollars, usdCents, usdValue } from './money';

const BASE = 'http://localhost:3000/sandbox';

let database: DatabaseHandle;
let closeDatabase: (() => Promise<void>) | undefined;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'sandbox-total-'));
  const opened = await openTestHandle([SANDBOX_MIGRATIONS]);
  database = opened.handle;
  closeDatabase = opened.close;
  sandbox = await createSandbox({
    db: database.db,
    dbKind: database.kind,
    encryptionKey: Buffer.alloc(32, 9),
    seed: 'wallet-total-tests',
    blockTimeMs: 1000,
    // Nothing listens here; deliveries fail and are retried, which the totals do not depend on.
    webhookUrl: 'http://127.0.0.1:9/hooks',
    webhookRetryMs: [10],
    signatureHeader: 'x-test-signature',
    baseUrl: BASE,
    dataDir,
  });
  creds = await sandbox.credentials();
});

afterAll(async () => {
  await sandbox?.stop();
  await closeDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

async function get(apiKey: string, pathname: string) {
  const res = await sandbox.handle(new Request(`${BASE}${pathname}`, { headers: { 'x-api-key': apiKey } }));
  expect(res.status).toBe(200);
  return (await res.json()) as { data: unknown };
}

/** #4's currentBalance, and the sum of the master's per-asset USD values in cents. */
async function totals(wallet: SandboxCredentials['wallets'][number]) {
  const { data: read } = await get(wallet.apiKey, `/v1/wallets/${wallet.id}`);
  const { data: balances } = await get(wallet.apiKey, `/v1/wallets/${wallet.id}/balances`);
  const parts = (balances as Array<{ convertedBalance: string }>).map((b) => b.convertedBalance);
  const sumCents = parts.reduce((sum, usd) => sum + BigInt(Math.round(Number(usd) * 100)), 0n);
  return {
    current: (read as { analytics: { currentBalance: number } }).analytics.currentBalance,
    sum: centsToDollars(sumCents),
  };
}

async function deposit(wallet: SandboxCredentials['wallets'][number], symbol: string, amount: string) {
  const address = wallet.addresses.find((a) => a.type === 'INTERNAL' && !a.disableAutoSweep)!;
  const asset = wallet.assets.find((a) => a.symbol === symbol)!;
  const res = await sandbox.handle(
    new Request(`${BASE}/control/deposits`, {
      method: 'POST',
      headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ addressId: address.id, assetId: asset.id, amount }),
    }),
  );
  expect(res.status).toBe(200);
  // Settles and sweeps to the master wallet, whose balances the total counts.
  await sandbox.drain();
}

describe('USD cents', () => {
  it('keeps whole-dollar values whole', () => {
    expect(usdCents(445_000n * 10n ** 6n, 6, '1')).toBe(44_500_000n);
    expect(centsToDollars(usdCents(445_000n * 10n ** 6n, 6, '1'))).toBe(445_000);
    expect(usdValue(445_000n * 10n ** 6n, 6, '1')).toBe('445000');
  });

  it('rounds fractions down to the cent', () => {
    expect(usdCents(1_234_567n, 6, '1')).toBe(123n);
    expect(usdCents(10n ** 18n / 3n, 18, '3000')).toBe(99_999n);
  });
});

describe("the sandbox wallet's total", () => {
  it('equals the sum of its assets in US dollars for whole and fractional amounts', async () => {
    const wallet = creds.wallets[0]!;
    const seeded = await totals(wallet);
    expect(seeded.current).toBeGreaterThan(0);
    expect(seeded.current).toBe(seeded.sum);

    await deposit(wallet, 'USDC', '500');
    const whole = await totals(wallet);
    // The sweep's network fee is paid in the native asset, so the gain is a little under 500.
    expect(whole.current).toBeGreaterThan(seeded.current + 499);
    expect(whole.current).toBeLessThanOrEqual(seeded.current + 500);
    expect(whole.current).toBe(whole.sum);

    await deposit(wallet, 'USDT', '250.37');
    const fractional = await totals(wallet);
    expect(fractional.current).toBeGreaterThan(whole.current + 249);
    expect(fractional.current).toBeLessThanOrEqual(whole.current + 250.37);
    expect(fractional.current).toBe(fractional.sum);
  });
});
