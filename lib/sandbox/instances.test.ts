// Several sandbox instances on one database (console instances sharing PostgreSQL): one seed, and the chain
// mined once per block. Runs on PGlite by default and on PostgreSQL when TEST_DATABASE_URL is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { erc20Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/connection';
import { TICK_LOCK_KEY, withDatabaseLock } from '@/lib/db/exclusive';
import { openTestHandle } from '@/test/db';
import { testSandboxOptions } from '@/test/sandbox';
import {
  sandboxBlockchains,
  sandboxMeta,
  sandboxRateLimitWindows,
  sandboxTransactions,
  sandboxWallets,
  sandboxWebhookLogs,
} from './db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from './index';

const abi = erc20Abi as unknown as Record<string, unknown>[];
const RECIPIENT = '0x00000000000000000000000000000000000000aa';

let database: DatabaseHandle;
let closeDatabase: () => Promise<void>;
let dataDir: string;
let a: Sandbox;
let b: Sandbox;
let creds: SandboxCredentials;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'sandbox-instances-'));
  const opened = await openTestHandle();
  database = opened.handle;
  closeDatabase = opened.close;
  // Two instances starting at once on one empty database.
  [a, b] = await Promise.all([
    createSandbox(testSandboxOptions(database, path.join(dataDir, 'a'), { seed: 'instances' })),
    createSandbox(testSandboxOptions(database, path.join(dataDir, 'b'), { seed: 'instances' })),
  ]);
  creds = await a.credentials();
});

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await closeDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

async function blockHeights(): Promise<number[]> {
  const rows = await database.db
    .select({ n: sandboxBlockchains.blockNumber })
    .from(sandboxBlockchains)
    .orderBy(sandboxBlockchains.id);
  return rows.map((r) => r.n);
}

async function call(sandbox: Sandbox, method: string, pathname: string, key: string, body?: unknown) {
  const res = await sandbox.handle(
    new Request(`http://sandbox.internal/sandbox${pathname}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: unknown }).data;
}

describe('starting together', () => {
  it('seeds once: both instances see the same wallets and keys', async () => {
    const seeded = await database.db.select().from(sandboxMeta).where(eq(sandboxMeta.key, 'seeded'));
    expect(seeded).toHaveLength(1);
    expect(await database.db.select({ id: sandboxWallets.id }).from(sandboxWallets)).toHaveLength(3);
    const other = await b.credentials();
    expect(other.wallets.map((w) => [w.id, w.apiKey])).toEqual(creds.wallets.map((w) => [w.id, w.apiKey]));
    expect(other.totpSecret).toBe(creds.totpSecret);
  });
});

describe('the block tick', () => {
  it('is skipped by an instance while another holds the chain', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = () => {};
    const holding = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const holder = withDatabaseLock(database.db, database.kind, TICK_LOCK_KEY, 'wait', async () => {
      entered();
      await gate;
    });
    await holding;
    const before = await blockHeights();
    expect(await b.tick()).toBe(false);
    expect(await a.tick()).toBe(false);
    expect(await blockHeights()).toEqual(before);
    release();
    expect((await holder).ran).toBe(true);
    expect(await b.tick()).toBe(true);
    expect(await blockHeights()).toEqual(before.map((n) => n + 1));
  });

  it('interleaved ticks of two instances settle a withdrawal once: one debit, one success event', async () => {
    const w = creds.wallets[0]!;
    const usdc = w.assets.find((x) => x.symbol === 'USDC')!;
    const balance = async () =>
      BigInt(
        (await call(a, 'POST', `/v1/wallets/${w.id}/contracts/read`, w.apiKey, {
          calls: [{ address: usdc.address, method: 'balanceOf', abi, parameters: [w.address] }],
        })) as string,
      );
    const before = await balance();
    const created = (await call(a, 'POST', `/v1/wallets/${w.id}/withdraw`, w.apiKey, {
      assets: [{ id: usdc.id, address: RECIPIENT, amount: '3', reference: 'instances-once' }],
    })) as { id: string };
    const statusOf = async () =>
      (
        await database.db
          .select({ status: sandboxTransactions.status })
          .from(sandboxTransactions)
          .where(eq(sandboxTransactions.id, created.id))
      )[0]?.status;
    let rounds = 0;
    while ((await statusOf()) === 'PENDING' && rounds < 20) {
      const ran = await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
      expect(ran.some(Boolean)).toBe(true);
      rounds += 1;
    }
    expect(await statusOf()).toBe('SUCCESS');
    expect(before - (await balance())).toBe(3_000_000n);
    const [events] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(sandboxWebhookLogs)
      .where(
        and(
          eq(sandboxWebhookLogs.transactionId, created.id),
          eq(sandboxWebhookLogs.event, 'withdraw.success'),
        ),
      );
    expect(events?.n).toBe(1);
  });
});

describe('the rate limit over HTTP', () => {
  it('is shared by the instances: a key has its limit in all, not on each', async () => {
    // A key's window starts afresh: the calls above counted under the default limit.
    await database.db.delete(sandboxRateLimitWindows);
    let t = Date.now();
    const options = { seed: 'instances', rateLimit: { limit: 2, windowMs: 60_000 }, now: () => t };
    const [c, d] = await Promise.all([
      createSandbox(testSandboxOptions(database, path.join(dataDir, 'c'), options)),
      createSandbox(testSandboxOptions(database, path.join(dataDir, 'd'), options)),
    ]);
    try {
      const w = creds.wallets[0]!;
      const get = (sandbox: Sandbox) =>
        sandbox.handle(
          new Request(`http://sandbox.internal/sandbox/v1/wallets/${w.id}`, {
            headers: { 'x-api-key': w.apiKey },
          }),
        );
      expect((await get(c)).status).toBe(200);
      expect((await get(d)).status).toBe(200);
      t += 15_000;
      for (const sandbox of [c, d]) {
        const refused = await get(sandbox);
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('45');
        expect(await refused.json()).toEqual({
          statusCode: 429,
          message: 'Too many requests: rate limit exceeded for this API key',
        });
      }
      // The window moves on with the clock.
      t += 45_000;
      expect((await get(d)).status).toBe(200);
      expect((await get(c)).status).toBe(200);
      expect((await get(d)).status).toBe(429);
    } finally {
      await c.stop();
      await d.stop();
    }
  });
});
