import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConsoleDb } from '@/lib/db/schema';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import type { ConsoleServices } from './services';
import { deleteWalletConnection, insertWalletConnection, replaceWalletKey } from './wallet-connections';
import { CONNECTION_TTL_MS, createCustodyConnections } from './wallets';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.close();
});

/** Services over the test database whose reads are counted. */
function countedServices(db: ConsoleDb) {
  const counter = { selects: 0 };
  const counted = new Proxy(db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== 'select' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        counter.selects++;
        return value.apply(target, args);
      };
    },
  });
  const services = {
    config: {
      encryptionKey: Buffer.alloc(32, 7),
      sandboxMode: false,
      env: {
        CUSTODY_API_URL: 'http://custody.test',
        CUSTODY_READ_BUDGET_MS: 8000,
        CUSTODY_WRITE_TIMEOUT_MS: 15000,
      },
    },
    database: { db: counted },
  } as unknown as ConsoleServices;
  return { services, counter };
}

const wallet = (id: string) => ({
  id,
  name: id,
  network: 'testnet',
  address: '0xabc',
  blockchain: { slug: 'eth' },
});

describe('the usual custody client of a wallet', () => {
  it('is read, opened and built once per window, and again after a change made here', async () => {
    const { services, counter } = countedServices(t.db);
    const custody = createCustodyConnections(services);
    await insertWalletConnection(services, wallet('w-kept'), 'key-one-0001', 'test');
    counter.selects = 0;
    const first = await custody.clientFor('w-kept');
    const [second, third] = await Promise.all([custody.clientFor('w-kept'), custody.clientFor('w-kept')]);
    expect(first).not.toBeNull();
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(counter.selects).toBe(1);

    // A rotated key is used from the next request on.
    await replaceWalletKey(services, 'w-kept', 'key-two-0002');
    counter.selects = 0;
    const rotated = await custody.clientFor('w-kept');
    expect(rotated).not.toBe(first);
    expect((await custody.connectionFor('w-kept'))?.apiKey).toBe('key-two-0002');

    // A removed wallet is unknown at once.
    await deleteWalletConnection(services, 'w-kept');
    expect(await custody.clientFor('w-kept')).toBeNull();
  });

  it('is read again after the window, and never kept for an unknown wallet or with options', async () => {
    const { services, counter } = countedServices(t.db);
    const custody = createCustodyConnections(services);
    await insertWalletConnection(services, wallet('w-window'), 'key-three-0003', 'test');
    const now = vi.spyOn(Date, 'now');
    try {
      now.mockReturnValue(1_000_000);
      counter.selects = 0;
      const first = await custody.clientFor('w-window');
      now.mockReturnValue(1_000_000 + CONNECTION_TTL_MS - 1);
      expect(await custody.clientFor('w-window')).toBe(first);
      now.mockReturnValue(1_000_000 + CONNECTION_TTL_MS);
      expect(await custody.clientFor('w-window')).not.toBe(first);
      expect(counter.selects).toBe(2);

      counter.selects = 0;
      expect(await custody.clientFor('w-unknown')).toBeNull();
      expect(await custody.clientFor('w-unknown')).toBeNull();
      const probe = await custody.clientFor('w-window', { direct: true, budgetMs: 500 });
      expect(probe).not.toBeNull();
      expect(counter.selects).toBe(3);
    } finally {
      now.mockRestore();
    }
  });
});
