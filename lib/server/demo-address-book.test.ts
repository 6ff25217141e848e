// The demo address book: seeded once into each sandbox wallet's empty book, past any cooling-off (so the demo pays
// its entries under the destination policy), at addresses the end-to-end helpers derive the same way.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_COOLING_OFF_SECONDS } from '@/lib/approvals/address-book';
import { addressBookEntries, walletConnections } from '@/lib/db/schema';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { demoBookAddressFor } from '../../e2e/helpers/address-book';
import { checkDestinations, setAddressBookPolicy } from './address-book';
import { DEMO_BOOK_NAMES, demoBookAddress, seedDemoAddressBook } from './demo-address-book';

let t: TestDatabase;

const connection = (id: string, createdBy: string) => ({
  id,
  name: id,
  blockchain: 'ethereum',
  network: 'testnet',
  address: '0x00000000000000000000000000000000000000cc',
  apiKeySealed: 'v1.sealed',
  apiKeyLast4: 'abcd',
  createdBy,
});

const entriesOf = (walletId: string) =>
  t.db.select().from(addressBookEntries).where(eq(addressBookEntries.walletId, walletId));

beforeAll(async () => {
  t = await createTestDatabase();
  await t.db
    .insert(walletConnections)
    .values([
      connection('wallet-a', 'sandbox'),
      connection('wallet-b', 'sandbox'),
      connection('real', 'ada'),
    ]);
});

afterAll(async () => {
  await t?.close();
});

describe('demo address book', () => {
  it('derives each address from the seed, the wallet and the name, as the end-to-end helpers do', () => {
    const a = demoBookAddress('custody-console-sandbox', 'wallet-a', 'Employee 01');
    expect(a).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(a).not.toBe(a.toLowerCase());
    expect(demoBookAddress('custody-console-sandbox', 'wallet-b', 'Employee 01')).not.toBe(a);
    expect(demoBookAddress('another-seed', 'wallet-a', 'Employee 01')).not.toBe(a);
    for (const name of DEMO_BOOK_NAMES)
      expect(demoBookAddressFor('wallet-a', name, 'custody-console-sandbox')).toBe(
        demoBookAddress('custody-console-sandbox', 'wallet-a', name).toLowerCase(),
      );
    expect(new Set(DEMO_BOOK_NAMES).size).toBe(DEMO_BOOK_NAMES.length);
  });

  it('fills each sandbox wallet’s empty book once, past the longest cooling-off, and leaves other wallets alone', async () => {
    const now = new Date('2026-06-01T00:00:00Z');
    // Wallet a's cold storage (where the sandbox's wallet-level rule sends deposits) is kept in its book too.
    const coldStorage = '0x3333333333333333333333333333333333333333';
    await seedDemoAddressBook(
      t.db,
      'seed',
      now,
      new Map([['wallet-a', [{ name: 'Cold storage', address: coldStorage }]]]),
    );
    const seeded = await entriesOf('wallet-a');
    expect(seeded).toHaveLength(DEMO_BOOK_NAMES.length + 1);
    expect(seeded.find((e) => e.name === 'Cold storage')).toMatchObject({ addressKey: coldStorage });
    expect(await entriesOf('wallet-b')).toHaveLength(DEMO_BOOK_NAMES.length);
    expect(await entriesOf('real')).toHaveLength(0);
    const acme = seeded.find((e) => e.name === 'Acme Supplies');
    expect(acme).toMatchObject({
      address: demoBookAddress('seed', 'wallet-a', 'Acme Supplies'),
      chain: 'ethereum',
    });

    // Payable at once under the destination policy, even with the longest cooling-off an admin can set.
    await setAddressBookPolicy(
      t.db,
      { coolingOffSeconds: MAX_COOLING_OFF_SECONDS, destinationPolicy: true },
      'test',
      now,
    );
    const check = await checkDestinations(
      t.db,
      'wallet-a',
      seeded.map((e) => e.address),
      now,
    );
    expect(check.problems).toEqual([]);

    // A book an admin changed is not filled again (an entry moved away stays moved).
    await t.db
      .update(addressBookEntries)
      .set({
        address: '0x2222222222222222222222222222222222222222',
        addressKey: '0x2222222222222222222222222222222222222222',
      })
      .where(eq(addressBookEntries.id, acme!.id));
    await seedDemoAddressBook(t.db, 'seed', now);
    const after = await entriesOf('wallet-a');
    expect(after).toHaveLength(DEMO_BOOK_NAMES.length + 1);
    expect(after.some((e) => e.addressKey === acme!.addressKey)).toBe(false);
  });
});
