import 'server-only';
// A wallet's address book: the console's own entries (approved by a second admin, usable after the
// cooling-off) beside the custody service's whitelisted addresses and beneficiaries, read from the service.
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  type AddressBookEntryView,
  type BookOption,
  coolingOffProblem,
  DEFAULT_COOLING_OFF_SECONDS,
  outsideBookProblem,
  usableFrom,
} from '@/lib/approvals/address-book';
import { kindsWhere } from '@/lib/approvals/kinds';
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

/** The address book policy: the cooling-off of a new entry, and whether money goes only to the book's entries. */
export interface AddressBookPolicyValues {
  coolingOffSeconds: number;
  /** The destination policy: money goes only to console address book entries past their cooling-off. */
  destinationPolicy: boolean;
}

/** In force until an admin changes the policy through a request: 24 hours, and the destination policy on. */
const DEFAULT_POLICY: AddressBookPolicyValues = {
  coolingOffSeconds: DEFAULT_COOLING_OFF_SECONDS,
  destinationPolicy: true,
};

/** The address book policy in force. */
export async function addressBookPolicyOf(db: Pick<ConsoleDb, 'select'>): Promise<AddressBookPolicyValues> {
  const [row] = await db.select().from(addressBookPolicy).where(eq(addressBookPolicy.id, POLICY_ID)).limit(1);
  return row
    ? { coolingOffSeconds: row.coolingOffSeconds, destinationPolicy: row.destinationPolicy }
    : DEFAULT_POLICY;
}

/** The cooling-off period in force, in seconds (the default until an admin changed it through a request). */
export async function coolingOffSeconds(db: ConsoleDb): Promise<number> {
  return (await addressBookPolicyOf(db)).coolingOffSeconds;
}

/** Sets the address book policy; only an approved `coolingOffEdit` request calls this. */
export async function setAddressBookPolicy(
  db: ConsoleDb,
  values: AddressBookPolicyValues,
  by: string,
  at: Date,
) {
  const set = { ...values, updatedBy: by, updatedAt: at };
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

/** A recipient the console's rules on destinations refuse: its place among the addresses checked, and why. */
export interface DestinationProblem {
  index: number;
  address: string;
  /** The sentence, without what became of the request (the caller says that). */
  message: string;
}

export interface DestinationCheck {
  policy: AddressBookPolicyValues;
  /** Each console entry among the addresses, by address key. */
  entries: Map<string, AddressBookEntryRow>;
  problems: DestinationProblem[];
}

/**
 * Where money may go from a wallet, as the book stands at `now`: an entry of the console's address book still in
 * its cooling-off is refused; while the destination policy is on, so is every address the console's book does
 * not hold, whitelisted addresses and beneficiaries of the service included (whitelisting alone must not open a
 * way out). An entry removed or changed since the request was made counts as it is now. One statement: the engine
 * asks again inside the final approval's transaction and just before sending.
 */
export async function checkDestinations(
  db: Pick<ConsoleDb, 'select'>,
  walletId: string,
  addresses: readonly string[],
  now: Date,
): Promise<DestinationCheck> {
  const keys = [...new Set(addresses.map(addressKey))];
  const rows = await db
    .select({ policy: addressBookPolicy, entry: addressBookEntries })
    .from(sql`(select 1) as one`)
    .leftJoin(addressBookPolicy, eq(addressBookPolicy.id, POLICY_ID))
    .leftJoin(
      addressBookEntries,
      keys.length > 0
        ? and(eq(addressBookEntries.walletId, walletId), inArray(addressBookEntries.addressKey, keys))
        : sql`false`,
    );
  const stored = rows[0]?.policy;
  const policy: AddressBookPolicyValues = stored
    ? { coolingOffSeconds: stored.coolingOffSeconds, destinationPolicy: stored.destinationPolicy }
    : DEFAULT_POLICY;
  const entries = new Map(rows.flatMap((r) => (r.entry ? [[r.entry.addressKey, r.entry] as const] : [])));
  const problems: DestinationProblem[] = [];
  addresses.forEach((address, index) => {
    const entry = entries.get(addressKey(address));
    if (entry) {
      const until = usableFrom(new Date(entry.addressSince), policy.coolingOffSeconds);
      if (until > now)
        problems.push({ index, address, message: coolingOffProblem(entry.name, entry.address, until, now) });
    } else if (policy.destinationPolicy)
      problems.push({ index, address, message: outsideBookProblem(address) });
  });
  return { policy, entries, problems };
}

/**
 * The problems as one sentence: the first (after `where` it is, e.g. "Line 4"), and how many more recipients
 * have one.
 */
export function describeDestinationProblems(
  problems: readonly DestinationProblem[],
  where?: (index: number) => string,
): string {
  const [first, ...rest] = problems;
  if (!first) return '';
  const others = new Set(rest.map((p) => p.index).filter((i) => i !== first.index)).size;
  const sentence = where ? `${where(first.index)}: ${first.message}` : first.message;
  return others > 0
    ? `${sentence} ${others} more ${others === 1 ? 'recipient has' : 'recipients have'} a problem like it.`
    : sentence;
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
  const [rows, policy, service] = await Promise.all([
    consoleEntries(db, walletId),
    addressBookPolicyOf(db),
    client
      ? serviceEntries(client, walletId, '', requestId)
      : Promise.resolve({ entries: [], unavailable: [] }),
  ]);
  return [...rows.map((r) => consoleEntryView(r, policy.coolingOffSeconds)), ...service.entries].map((e) => ({
    id: e.id,
    name: e.name,
    address: e.address,
    source: e.source,
    tags: e.tags,
    coolingOffUntil: e.usableFrom && new Date(e.usableFrom) > now ? e.usableFrom : null,
    outsideBook: e.source !== 'console' && policy.destinationPolicy,
  }));
}

/** The kinds whose payload's `items` are the recipients they pay (withdrawals, sent or signed, and payout files). */
export const RECIPIENT_PAYING_KINDS = kindsWhere((traits) => traits.paysRecipients);

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
      sql`${operationRequests.walletId} = ${walletId} and ${inArray(operationRequests.type, RECIPIENT_PAYING_KINDS)} and ${operationRequests.status} in ('SUBMITTED','SUCCESS')`,
    )
    .orderBy(sql`${operationRequests.createdAt} desc`)
    .limit(requests);
  return [...new Set(past.flatMap((row) => row.addresses ?? []))].filter(Boolean);
}
