// SANDBOX_SEED_TRANSACTIONS: a large history for the first wallet on request, the default seed unchanged.
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '@/test/sandbox';
import { sandboxTransactions, sandboxWebhookLogs } from './db/schema';

const EXTRA = 600;
/** One clock for both seeds: the history's dates count back from it. */
const now = () => Date.UTC(2026, 10, 1);

let plain: TestSandbox;
let large: TestSandbox;

beforeAll(async () => {
  [plain, large] = await Promise.all([
    createTestSandbox({ now }),
    createTestSandbox({ now, seedTransactions: EXTRA }),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([plain?.close(), large?.close()]);
});

async function rowsOf(env: TestSandbox, walletId: string) {
  return env.database.db
    .select({
      id: sandboxTransactions.id,
      type: sandboxTransactions.type,
      status: sandboxTransactions.status,
      assetId: sandboxTransactions.assetId,
      amount: sandboxTransactions.amount,
      createdAt: sandboxTransactions.createdAt,
    })
    .from(sandboxTransactions)
    .where(eq(sandboxTransactions.walletId, walletId));
}

describe('seeding a large history', () => {
  it('adds the asked number of transactions to the first wallet only', async () => {
    const [first, ...others] = large.credentials.wallets;
    const plainFirst = await rowsOf(plain, plain.credentials.wallets[0]!.id);
    expect(await rowsOf(large, first!.id)).toHaveLength(plainFirst.length + EXTRA);
    for (const [i, wallet] of others.entries()) {
      const before = await rowsOf(plain, plain.credentials.wallets[i + 1]!.id);
      expect(await rowsOf(large, wallet.id)).toHaveLength(before.length);
    }
  });

  it('leaves the default seed as it is (same ids, same rows, same webhook logs)', async () => {
    // Both seeded from the same SANDBOX_SEED: everything the default seed writes is written identically.
    expect(large.credentials.wallets.map((w) => w.id)).toEqual(plain.credentials.wallets.map((w) => w.id));
    const walletId = plain.credentials.wallets[0]!.id;
    const byId = new Map((await rowsOf(large, walletId)).map((r) => [r.id, r]));
    for (const row of await rowsOf(plain, walletId)) expect(byId.get(row.id)).toEqual(row);
    const logs = async (env: TestSandbox) =>
      (await env.database.db.select({ n: count() }).from(sandboxWebhookLogs))[0]?.n;
    expect(await logs(large)).toBe(await logs(plain));
  });

  it('varies status, type, asset, amount and date, so sorting and filtering have something to do', async () => {
    const rows = await rowsOf(large, large.credentials.wallets[0]!.id);
    const distinct = (pick: (r: (typeof rows)[number]) => unknown) => new Set(rows.map(pick)).size;
    expect(distinct((r) => r.status)).toBe(3);
    expect(distinct((r) => r.type)).toBe(6);
    expect(distinct((r) => r.assetId)).toBe(3);
    expect(distinct((r) => r.amount)).toBeGreaterThan(EXTRA / 2);
    const times = rows.map((r) => r.createdAt.getTime());
    // A year of history: the oldest row is far older than the default seed's 60 days.
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(200 * 86_400_000);
  });
});
