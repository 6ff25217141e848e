// The address book's rules in tests of other things: recipients written into a wallet's book as entries two
// admins approved long ago (past any cooling-off), or the destination policy switched as an approved request
// would leave it. Tests of the rules themselves go through the engine instead.
import { getAddress, isAddress } from 'viem';
import type { ConsoleDb } from '@/lib/db/schema';
import { addressBookEntries } from '@/lib/db/schema';
import { addressBookPolicyOf, setAddressBookPolicy } from '@/lib/server/address-book';

/** Writes each address into the wallet's console address book, approved long ago; one already there is kept. */
export async function trustRecipients(db: ConsoleDb, walletId: string, addresses: readonly string[]) {
  const since = new Date('2020-01-01T00:00:00Z');
  const unique = [...new Set(addresses.map((a) => a.toLowerCase()))];
  if (unique.length === 0) return;
  await db
    .insert(addressBookEntries)
    .values(
      unique.map((key, i) => ({
        walletId,
        name: `Test payee ${i + 1} ${key.slice(-6)}`,
        address: isAddress(key, { strict: false }) ? getAddress(key) : key,
        addressKey: key,
        chain: 'ethereum',
        tags: ['test'],
        addressSince: since,
        requestId: '00000000-0000-4000-8000-000000000000',
        requestedBy: 'test',
        approvedBy: [],
      })),
    )
    .onConflictDoNothing();
}

/** The destination policy on or off (the cooling-off unchanged), as an approved `coolingOffEdit` leaves it. */
export async function setDestinationPolicy(db: ConsoleDb, on: boolean) {
  const policy = await addressBookPolicyOf(db);
  await setAddressBookPolicy(db, { ...policy, destinationPolicy: on }, 'test', new Date());
}
