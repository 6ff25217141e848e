import 'server-only';
// A wallet's child addresses as far as the console can tell: the service's list (an extension) when it has
// one, else the addresses the console has seen itself (webhook payloads and its own operation requests),
// each read with #5. The spec alone cannot list a wallet's addresses.
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { CustodyClient } from '@/lib/custody';
import { CustodyError } from '@/lib/custody/errors';
import type { Address } from '@/lib/custody/schemas';
import { type ConsoleDb, operationRequests, webhookEvents } from '@/lib/db/schema';
import { type Capabilities, viaExtension } from './capabilities';
import { currentDb as getDb } from './services';
import { runPool } from './webhooks';

/** At most this many remembered addresses are offered (and read with #5) per page load. */
const MAX_KNOWN_ADDRESSES = 50;
/** #5 reads in flight at once for one page. */
const LOOKUP_CONCURRENCY = 6;
/** Page size of the address list extension when it is there. */
const LIST_LIMIT = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isAddressId(value: string): boolean {
  return UUID.test(value);
}

function seenTime(value: unknown): number {
  const time = value instanceof Date ? value.getTime() : Date.parse(String(value));
  return Number.isNaN(time) ? 0 : time;
}

/**
 * Child address ids of the wallet that the console has seen, most recently seen first: the address a
 * stored webhook's transaction belongs to (`addressId`, or `address.id`) and the address of each of the
 * console's own operation requests.
 */
export async function knownAddressIds(
  walletId: string,
  { db, limit = MAX_KNOWN_ADDRESSES }: { db?: ConsoleDb; limit?: number } = {},
): Promise<string[]> {
  const database = db ?? (await getDb());
  const webhookAddress = sql<string>`coalesce(${webhookEvents.payload}->>'addressId', ${webhookEvents.payload}->'address'->>'id')`;
  const lastRequest = sql<unknown>`max(${operationRequests.createdAt})`;
  const lastWebhook = sql<unknown>`max(${webhookEvents.receivedAt})`;
  const [fromRequests, fromWebhooks] = await Promise.all([
    database
      .select({ id: operationRequests.addressId, seen: lastRequest })
      .from(operationRequests)
      .where(and(eq(operationRequests.walletId, walletId), isNotNull(operationRequests.addressId)))
      .groupBy(operationRequests.addressId)
      .orderBy(desc(lastRequest))
      .limit(limit),
    database
      .select({ id: webhookAddress, seen: lastWebhook })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.walletId, walletId), sql`${webhookAddress} is not null`))
      .groupBy(webhookAddress)
      .orderBy(desc(lastWebhook))
      .limit(limit),
  ]);
  const latest = new Map<string, number>();
  for (const row of [...fromRequests, ...fromWebhooks]) {
    const id = row.id?.toLowerCase();
    // Payloads come from outside: only well-formed ids are ever sent back upstream.
    if (!id || !UUID.test(id)) continue;
    latest.set(id, Math.max(latest.get(id) ?? 0, seenTime(row.seen)));
  }
  return [...latest.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([id]) => id);
}

/** A child address may act: internal (or untyped) and not deactivated. */
function isUsableChild(address: Address): boolean {
  return (
    (address.type === undefined || address.type === null || address.type === 'INTERNAL') &&
    address.isActive !== false
  );
}

/** Reads each id with #5, a few at a time; ids the service does not answer for are left out. */
export async function lookUpAddresses(
  client: CustodyClient,
  walletId: string,
  ids: readonly string[],
): Promise<Address[]> {
  const results = await runPool(ids, LOOKUP_CONCURRENCY, (addressId) =>
    client.addresses.get({ walletId, addressId }).then((r) => r.data),
  );
  return results.flatMap((r) => (r.ok && isUsableChild(r.value) ? [r.value] : []));
}

export interface ChildAddressList {
  addresses: Address[];
  /**
   * `service`: the service's own list. `known`: the addresses the console has seen, which may miss some;
   * forms then also take an address id typed by hand.
   */
  source: 'service' | 'known';
}

/** The wallet's usable child addresses for a form. */
export async function childAddressesFor(
  client: CustodyClient,
  walletId: string,
  capabilities?: Capabilities,
): Promise<ChildAddressList> {
  return viaExtension<ChildAddressList>(
    walletId,
    'walletAddresses',
    async () => {
      const page = await client.wallets.listAddresses({ walletId, limit: LIST_LIMIT });
      return { source: 'service', addresses: page.data.filter(isUsableChild) };
    },
    async () => ({
      source: 'known',
      addresses: await lookUpAddresses(client, walletId, await knownAddressIds(walletId)),
    }),
    capabilities,
  );
}

/**
 * Ids of the child addresses whose transactions (#3) stand in for the wallet-wide list: the service's list
 * when it has one, else the addresses the console has seen. No #5 reads: #3 refuses an id that is not the
 * wallet's.
 */
export async function childAddressIdsFor(
  client: CustodyClient,
  walletId: string,
  capabilities?: Capabilities,
): Promise<string[]> {
  return viaExtension(
    walletId,
    'walletAddresses',
    async () =>
      // One read shared with the form's list (unfiltered); whitelisted addresses are EXTERNAL.
      (await client.wallets.listAddresses({ walletId, limit: LIST_LIMIT })).data
        .filter((a) => a.type !== 'EXTERNAL')
        .map((a) => a.id),
    () => knownAddressIds(walletId),
    capabilities,
  );
}

export type CheckedAddress = { ok: true; address: Address } | { ok: false; error: string };

/**
 * An address id typed by hand, checked before use: the shape first (a UUID), then #5 with the wallet's key
 * (the service answers only for its own addresses), then that it is an active child address.
 */
export async function checkChildAddress(
  client: CustodyClient,
  walletId: string,
  addressId: string,
): Promise<CheckedAddress> {
  const id = addressId.trim();
  if (!UUID.test(id)) return { ok: false, error: 'An address id is a UUID, e.g. 9f2c…-….' };
  try {
    const { data } = await client.addresses.get({ walletId, addressId: id });
    if (data.id.toLowerCase() !== id.toLowerCase())
      return { ok: false, error: 'The custody service answered for a different address.' };
    if (!isUsableChild(data))
      return { ok: false, error: 'This is not an active child address of this wallet.' };
    return { ok: true, address: data };
  } catch (error) {
    if (error instanceof CustodyError && error.kind === 'http' && error.status >= 400 && error.status < 500)
      return { ok: false, error: 'The custody service has no address with this id in this wallet.' };
    throw error;
  }
}

/** How forms list an address. */
export function addressOption(address: Address): { id: string; label: string; address: string } {
  return { id: address.id, label: address.name ?? address.address, address: address.address };
}
