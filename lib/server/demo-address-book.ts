import 'server-only';
// The demo address book (sandbox mode only): each sandbox wallet's book starts with named counterparties and
// employees, added long ago so they are past any cooling-off, and the demo can pay them under the destination
// policy. Their addresses follow from SANDBOX_SEED, the wallet and the name, so a person trying the demo and the
// end-to-end tests find the same ones (e2e/helpers/address-book.ts; a unit test checks both agree). Never used
// against the real service.
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { getAddress } from 'viem';
import { addressBookEntries, type ConsoleDb, walletConnections } from '@/lib/db/schema';

// Named apart from the sandbox's own beneficiaries, so a name means one address in the demo.
const COUNTERPARTIES = [
  'Acme Supplies',
  'Soylent Foods',
  'Wonka Catering',
  'Tyrell Leasing',
  'Cyberdyne Hardware',
  'Aperture Labs',
  'Vandelay Imports',
  'Pied Piper Hosting',
  'Dunder Mifflin Paper',
  'Oscorp Office Rent',
  'Massive Dynamic',
  'Nakatomi Trading',
  'Prestige Worldwide',
  'Bluth Company',
  'Monarch Audit',
  'Sirius Cybernetics',
];

/** Enough employees for a demo payroll file of 50 rows. */
const EMPLOYEES = Array.from({ length: 50 }, (_, i) => `Employee ${String(i + 1).padStart(2, '0')}`);

export const DEMO_BOOK_NAMES: readonly string[] = [...COUNTERPARTIES, ...EMPLOYEES];

/** How long before the seed the demo entries were approved: past the longest cooling-off an admin can set. */
const DEMO_AGE_MS = 60 * 24 * 60 * 60 * 1000;

/** The demo entry's address: the first 20 bytes of HMAC-SHA256 of the wallet and name under the seed. */
export function demoBookAddress(seed: string, walletId: string, name: string): string {
  const mac = createHmac('sha256', seed).update(`demo-address-book:${walletId}:${name}`).digest();
  return getAddress(`0x${mac.subarray(0, 20).toString('hex')}`);
}

/** One of the sandbox's own addresses the demo book keeps too, by wallet id. */
interface KeptAddress {
  name: string;
  address: string;
}

/**
 * Fills the book of every sandbox wallet whose book is empty (a book an admin has changed is left alone), once.
 * The entries name no approval request: the seed stands for a book kept long before the console. `kept`: the
 * sandbox's own addresses each wallet's book holds as well (its cold storage, where the seeded wallet-level
 * auto-settlement rule sends deposits: switching auto-settlement on puts that rule in force, and the destination
 * policy holds its destination to the book).
 */
export async function seedDemoAddressBook(
  db: ConsoleDb,
  seed: string,
  now: Date = new Date(),
  kept: ReadonlyMap<string, readonly KeptAddress[]> = new Map(),
): Promise<void> {
  const wallets = await db
    .select({ id: walletConnections.id, blockchain: walletConnections.blockchain })
    .from(walletConnections)
    .where(eq(walletConnections.createdBy, 'sandbox'));
  const since = new Date(now.getTime() - DEMO_AGE_MS);
  for (const wallet of wallets) {
    const [any] = await db
      .select({ id: addressBookEntries.id })
      .from(addressBookEntries)
      .where(eq(addressBookEntries.walletId, wallet.id))
      .limit(1);
    if (any) continue;
    const entry = (name: string, address: string, tags: string[], notes: string) => ({
      walletId: wallet.id,
      name,
      address: getAddress(address),
      addressKey: address.toLowerCase(),
      chain: wallet.blockchain,
      tags,
      notes,
      addressSince: since,
      requestId: '00000000-0000-4000-8000-000000000000',
      requestedBy: 'sandbox',
      approvedBy: [],
      createdAt: since,
      updatedAt: since,
    });
    await db
      .insert(addressBookEntries)
      .values([
        ...DEMO_BOOK_NAMES.map((name) =>
          entry(
            name,
            demoBookAddress(seed, wallet.id, name),
            [name.startsWith('Employee') ? 'payroll' : 'supplier', 'demo'],
            'Demo entry (sandbox mode).',
          ),
        ),
        ...(kept.get(wallet.id) ?? []).map(({ name, address }) =>
          entry(
            name,
            address,
            ['treasury', 'demo'],
            'Demo entry (sandbox mode): an address of the business at the custody service.',
          ),
        ),
      ])
      .onConflictDoNothing();
  }
}
