import 'server-only';
// Where a request sends money, by kind, and the address book's rules asked again when the last approval lands
// and just before anything is sent: a request is checked when it is made, but the book may change while it
// waits (an entry removed, or changed and re-added so its cooling-off starts again), and counts as it is now.
import type { ConsoleDb } from '@/lib/db/schema';
import { checkDestinations, describeDestinationProblems } from '../address-book';

interface Destinations {
  /** The wallet whose address book holds the recipients. */
  walletId: string;
  addresses: string[];
  /** How a reviewer names a recipient's place in the request ("Line 4"), or null for a single destination. */
  where: ((index: number) => string) | null;
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};

const itemsOf = (payload: unknown) =>
  Array.isArray(record(payload).items) ? (record(payload).items as unknown[]).map(record) : [];

const addressesOf = (items: Array<Record<string, unknown>>) => items.map((i) => String(i.address ?? ''));

/**
 * The recipients of a request that pays addresses: withdrawals (sent or sign-only), payout files, payout
 * schedules (each run is a payout file of its own) and an auto-settlement rule in force. Null for the kinds that
 * pay no address of their choosing (a swap's proceeds stay at its address; configuration).
 */
function destinationsOf(type: string, walletId: string, payload: unknown): Destinations | null {
  switch (type) {
    case 'withdraw':
    case 'withdrawSign': {
      const items = itemsOf(payload);
      return {
        walletId,
        addresses: addressesOf(items),
        where: items.length > 1 ? (i) => `Recipient ${i + 1}` : null,
      };
    }
    case 'payout': {
      const items = itemsOf(payload);
      return { walletId, addresses: addressesOf(items), where: (i) => `Line ${items[i]?.line ?? i + 1}` };
    }
    case 'payoutSchedule': {
      const schedule = record(payload);
      const items = itemsOf(schedule.payout);
      return {
        walletId: String(schedule.walletId ?? ''),
        addresses: addressesOf(items),
        where: (i) => `Line ${items[i]?.line ?? i + 1}`,
      };
    }
    case 'settlementRule': {
      const rule = record(record(payload).rule);
      // A rule switched off forwards nothing.
      if (rule.isActive !== true) return null;
      return { walletId, addresses: [String(record(rule.destination).address ?? '')], where: null };
    }
    default:
      return null;
  }
}

/**
 * Why the address book's rules refuse the request now (without what became of the request), or null. One
 * statement, none for the kinds that pay no address: it runs inside the final approval's transaction.
 */
export async function destinationRefusal(
  db: Pick<ConsoleDb, 'select'>,
  type: string,
  walletId: string,
  payload: unknown,
  now: Date,
): Promise<string | null> {
  const destinations = destinationsOf(type, walletId, payload);
  if (!destinations || destinations.addresses.length === 0) return null;
  const { problems } = await checkDestinations(db, destinations.walletId, destinations.addresses, now);
  if (problems.length === 0) return null;
  return describeDestinationProblems(problems, destinations.where ?? undefined);
}
