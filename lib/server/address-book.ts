import 'server-only';
// A wallet's address book: the console's own entries (approved by a second admin, usable after the
// cooling-off) beside the custody service's whitelisted addresses and beneficiaries, read from the service.
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  type AddressBookEntryView,
  type BookOption,
  coolingOffRefusal,
  DEFAULT_COOLING_OFF_SECONDS,
  usableFrom,
} from '@/lib/approvals/address-book';
import type { CustodyClient } from '@/lib/custody';
import {
  type AddressBookEntryRow,
  addressBookEntries,
  addressBookPolicy,
  type ConsoleDb,
  operationRequests,
} from '@/lib/db/schema';
import { addressKey } from '@/lib/validation/addresses';
import { describeFailure } from './errors';

const POLICY_ID = 'default';

/** The cooling-off period in force, in seconds (the default until an admin changed it through a request). */
export async function coolingOffSeconds(db: ConsoleDb): Promise<number> {
  const [row] = await db.select().from(addressBookPolicy).where(eq(addressBookPolicy.id, POLICY_ID)).limit(1);
  return row?.coolingOffSeconds ?? DEFAULT_COOLING_OFF_SECONDS;
}

/** Sets the cooling-off period; only an approved `coolingOffEdit` request calls this. */
export async function setCoolingOffSeconds(db: ConsoleDb, seconds: number, by: string, at: Date) {
  const set = { coolingOffSeconds: seconds, updatedBy: by, updatedAt: at };
  await db
    .insert(addressBookPolicy)
    .values({ id: POLICY_ID, ...set })
    .onConflictDoUpdate({ target: addressBookPolicy.id, set });
}

export async function consoleEntries(db: ConsoleDb, walletId: string): Promise<AddressBookEntryRow[]> {
  return db
    .select()
    .from(addressBookEntries)
    .where(eq(addressBookEntries.walletId, walletId))
    .orderBy(addressBookEntries.name);
}

export async function consoleEntriesByAddress(
  db: ConsoleDb,
  walletId: string,
  addresses: readonly string[],
): Promise<Map<string, AddressBookEntryRow>> {
  const keys = [...new Set(addresses.map(addressKey))];
  if (keys.length === 0) return new Map();
  const rows = await db
    .select()
    .from(addressBookEntries)
    .where(and(eq(addressBookEntries.walletId, walletId), inArray(addressBookEntries.addressKey, keys)));
  return new Map(rows.map((r) => [r.addressKey, r]));
}

/**
 * The refusal of a payment to console entries still in their cooling-off period, or null. Checked by the
 * server whenever a withdrawal is reviewed (preview and creation), whatever the form showed.
 */
export async function coolingOffCheck(
  db: ConsoleDb,
  walletId: string,
  addresses: readonly string[],
  now: Date = new Date(),
): Promise<string | null> {
  const entries = await consoleEntriesByAddress(db, walletId, addresses);
  if (entries.size === 0) return null;
  const seconds = await coolingOffSeconds(db);
  for (const entry of entries.values()) {
    const until = usableFrom(entry.addressSince, seconds);
    if (until > now) return coolingOffRefusal(entry.name, entry.address, until, now);
  }
  return null;
}

function consoleEntryView(row: AddressBookEntryRow, seconds: number): AddressBookEntryView {
  return {
    id: row.id,
    source: 'console',
    name: row.name,
    address: row.address,
    chain: row.chain,
    tags: row.tags,
    notes: row.notes,
    since: row.addressSince.toISOString(),
    usableFrom: usableFrom(row.addressSince, seconds).toISOString(),
  };
}

async function settle<T>(
  promise: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The service's whitelisted addresses and beneficiaries as book entries; what could not be read is named. */
async function serviceEntries(
  client: CustodyClient,
  walletId: string,
  chain: string,
  requestId: string | null = null,
): Promise<{ entries: AddressBookEntryView[]; unavailable: string[] }> {
  const [externals, beneficiaries] = await Promise.all([
    settle(client.wallets.listAddresses({ walletId, type: 'EXTERNAL', limit: 100 })),
    settle(client.beneficiaries.list({ walletId, limit: 100 })),
  ]);
  const entries: AddressBookEntryView[] = [];
  const unavailable: string[] = [];
  if (externals.ok) {
    for (const a of externals.value.data.filter((x) => x.type === 'EXTERNAL'))
      entries.push({
        id: `whitelisted:${a.id}`,
        source: 'whitelisted',
        name: a.name ?? 'Whitelisted address',
        address: a.address,
        chain,
        tags: [],
        notes: '',
        since: a.createdAt ?? null,
        usableFrom: null,
      });
  } else
    unavailable.push(
      `whitelisted addresses (${describeFailure(externals.error, requestId, 'address book').message})`,
    );
  if (beneficiaries.ok) {
    for (const b of beneficiaries.value.data.filter((x) => !x.deletedAt))
      entries.push({
        id: `beneficiary:${b.id}`,
        source: 'beneficiary',
        name: b.name,
        address: b.address,
        chain,
        tags: [],
        notes: '',
        since: b.createdAt ?? null,
        usableFrom: null,
      });
  } else
    unavailable.push(
      `beneficiaries (${describeFailure(beneficiaries.error, requestId, 'address book').message})`,
    );
  return { entries, unavailable };
}

export interface AddressBookView {
  chain: { name: string; isEvmCompatible: boolean };
  entries: AddressBookEntryView[];
  coolingOffSeconds: number;
  /** The service's lists that could not be read, with the service's message. */
  unavailable: string[];
}

/** A wallet's whole book, the console's entries first; null when the wallet is not connected. */
export async function loadAddressBook(
  db: ConsoleDb,
  walletId: string,
  requestId: string | null = null,
): Promise<AddressBookView | null> {
  const { custodyFor } = await import('./wallets');
  const client = await custodyFor(walletId);
  if (!client) return null;
  const wallet = (await client.wallets.get({ walletId })).data;
  const chain = {
    name: wallet.blockchain.name,
    isEvmCompatible: wallet.blockchain.isEvmCompatible !== false,
  };
  const [rows, seconds, service] = await Promise.all([
    consoleEntries(db, walletId),
    coolingOffSeconds(db),
    serviceEntries(client, walletId, chain.name, requestId),
  ]);
  return {
    chain,
    entries: [...rows.map((r) => consoleEntryView(r, seconds)), ...service.entries],
    coolingOffSeconds: seconds,
    unavailable: service.unavailable,
  };
}

/** The book as the forms' pickers offer it (no custody call beyond the service's two lists). */
export async function bookOptions(
  db: ConsoleDb,
  walletId: string,
  requestId: string | null = null,
  now: Date = new Date(),
): Promise<BookOption[]> {
  const { custodyFor } = await import('./wallets');
  const client = await custodyFor(walletId);
  const [rows, seconds, service] = await Promise.all([
    consoleEntries(db, walletId),
    coolingOffSeconds(db),
    client
      ? serviceEntries(client, walletId, '', requestId)
      : Promise.resolve({ entries: [], unavailable: [] }),
  ]);
  return [...rows.map((r) => consoleEntryView(r, seconds)), ...service.entries].map((e) => ({
    id: e.id,
    name: e.name,
    address: e.address,
    source: e.source,
    tags: e.tags,
    coolingOffUntil: e.usableFrom && new Date(e.usableFrom) > now ? e.usableFrom : null,
  }));
}

/**
 * The recipients of the console's own submitted withdrawals and payout files of a wallet, newest requests first
 * (`requests` of them read), each address once: past counterparties a look-alike may imitate.
 */
export async function consolePaidAddresses(
  db: ConsoleDb,
  walletId: string,
  requests: number,
): Promise<string[]> {
  // Only the recipients' addresses leave the database, not the requests' whole payloads.
  const past = await db
    .select({
      addresses: sql<
        string[] | null
      >`array(select item->>'address' from jsonb_array_elements(${operationRequests.payload}->'items') as item)`,
    })
    .from(operationRequests)
    .where(
      sql`${operationRequests.walletId} = ${walletId} and ${operationRequests.type} in ('withdraw', 'withdrawSign', 'payout') and ${operationRequests.status} in ('SUBMITTED','SUCCESS')`,
    )
    .orderBy(sql`${operationRequests.createdAt} desc`)
    .limit(requests);
  return [...new Set(past.flatMap((row) => row.addresses ?? []))].filter(Boolean);
}
