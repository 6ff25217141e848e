import 'server-only';
// Where a request sends money, by kind, and the address book's rules asked when it is made, again when the last
// approval lands and just before anything is sent: the book may change while a request waits (an entry removed,
// or changed and re-added so its cooling-off starts again), and counts as it is now.
import type { AbiFunction } from 'viem';
import { isOperationKind, type OperationKind } from '@/lib/approvals/kinds';
import type { ConsoleDb } from '@/lib/db/schema';
import { describeTypedData, type TypedDataDocument } from '@/lib/validation/typed-data';
import { checkDestinations, describeDestinationProblems } from '../address-book';
import { decodeContractCall } from './decode';

interface Destinations {
  /** The wallet whose address book holds the recipients. */
  walletId: string;
  addresses: string[];
  /** How a reviewer names a recipient's place in the request ("Line 4"), or null for a single destination. */
  where: ((index: number) => string) | null;
  /**
   * Why the console cannot tell where the request sends money (a retried transaction the service did not show):
   * refused while the destination policy is on, since an unknown recipient cannot be one of the book's entries.
   */
  unknown?: string;
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};

const list = (value: unknown) => (Array.isArray(value) ? value.map(record) : []);

const itemsOf = (payload: unknown) => list(record(payload).items);

const addressesOf = (items: Array<Record<string, unknown>>) => items.map((i) => String(i.address ?? ''));

/** The native coin a call sends along (its `value`, in base units); 0 when none or unreadable. */
function nativeValueOf(call: Record<string, unknown>): bigint {
  try {
    return BigInt(String(call.value ?? '0'));
  } catch {
    return 0n;
  }
}

/**
 * Who a contract call pays, read from the bytes it sends: the recipient of an ERC-20 transfer or transferFrom,
 * the spender of an approve or increaseAllowance (an allowance lets the spender take the money later), and the
 * called address itself when the call sends native coin along (a "contract call" to a person's own address is a
 * withdrawal of the coin). A call the console cannot decode is not named here for its arguments: it already needs
 * the most approvals the policy asks.
 */
function contractDestinations(walletId: string, payload: unknown): Destinations {
  const calls = list(record(payload).calls);
  const paid = calls.flatMap((call, index) => {
    const decoded = decodeContractCall({
      contract: String(call.address ?? ''),
      abi: Array.isArray(call.abi) ? (call.abi as AbiFunction[]) : [],
      method: String(call.method ?? ''),
      parameters: Array.isArray(call.parameters) ? call.parameters : [],
    });
    const coin =
      nativeValueOf(call) > 0n
        ? [{ index, address: String(call.address ?? ''), what: 'the address the native coin is sent to' }]
        : [];
    const token = decoded.ok
      ? [{ index, address: decoded.call.to, what: `the ${decoded.call.role} of ${decoded.call.function}` }]
      : [];
    return [...token, ...coin];
  });
  return {
    walletId,
    addresses: paid.map((p) => p.address),
    where: (i) => {
      const p = paid[i];
      if (!p) return `Call ${i + 1}`;
      if (calls.length > 1) return `Call ${p.index + 1}, ${p.what}`;
      return p.what.charAt(0).toUpperCase() + p.what.slice(1);
    },
  };
}

/**
 * Who a typed-data signature lets take money: a permit's spender (an allowance, as an approve call gives) or an
 * authorization's recipient. Another document names no one the console can read: it needs the highest quorum.
 */
function signatureDestinations(walletId: string, payload: unknown): Destinations | null {
  let description: ReturnType<typeof describeTypedData>;
  try {
    description = describeTypedData(record(payload) as unknown as TypedDataDocument, {
      signer: null,
      tokens: [],
      now: new Date(0),
    });
  } catch {
    return null;
  }
  if (description.kind === 'other' || !description.spender) return null;
  const who =
    description.kind === 'permit' ? 'The spender of the permit' : 'The recipient of the authorization';
  return { walletId, addresses: [description.spender], where: () => who };
}

/**
 * Where retrying a transaction sends money, from the transaction the review looked up (stored with the request):
 * a withdrawal pays its recipient again; a swap's proceeds stay with the wallet, as a swap request's do. Anything
 * else, or a transaction the service did not show, has no recipient the console can check.
 */
function retryDestinations(walletId: string, review: unknown): Destinations | null {
  const tx = record(record(review).transaction);
  const recipient = typeof tx.recipientAddress === 'string' ? tx.recipientAddress : '';
  if (tx.type === 'SWAP') return null;
  if (tx.type === 'WITHDRAW' && recipient)
    return { walletId, addresses: [recipient], where: () => 'The recipient of the retried withdrawal' };
  const what = tx.type === 'CUSTOM_SMART_CONTRACT' ? 'contract call' : 'transaction';
  const id = typeof tx.id === 'string' ? ` ${tx.id}` : '';
  const policy = 'money goes only to address book entries past their cooling-off (the destination policy).';
  return {
    walletId,
    addresses: [],
    where: null,
    unknown:
      typeof tx.type === 'string'
        ? `The console cannot tell where retrying ${what}${id} sends money, so its recipient cannot be checked against the address book: ${policy}`
        : `The custody service did not show transaction${id} to the console, so its recipient cannot be checked against the address book: ${policy}`,
  };
}

/**
 * Switching a wallet's auto-settlement on puts its rules in force: every matching deposit goes to an active
 * rule's destination, so each one is held to the rules of a withdrawal's recipient (the rules as the review
 * listed them). Switching off forwards nothing.
 */
function settlementToggleDestinations(
  walletId: string,
  payload: unknown,
  review: unknown,
): Destinations | null {
  if (record(payload).isActive !== true) return null;
  const rules = list(record(review).rules).filter((r) => r.isActive === true);
  return {
    walletId,
    addresses: rules.map((r) => String(record(r.destination).address ?? '')),
    where: (i) => `Rule “${String(rules[i]?.name ?? i + 1)}”, in force once auto-settlement is on`,
  };
}

type DestinationsReader = (walletId: string, payload: unknown, review: unknown) => Destinations | null;

function recipientDestinations(walletId: string, payload: unknown): Destinations {
  const items = itemsOf(payload);
  return {
    walletId,
    addresses: addressesOf(items),
    where: items.length > 1 ? (i) => `Recipient ${i + 1}` : null,
  };
}

function payoutDestinations(walletId: string, payload: unknown): Destinations {
  const items = itemsOf(payload);
  return { walletId, addresses: addressesOf(items), where: (i) => `Line ${items[i]?.line ?? i + 1}` };
}

function payoutScheduleDestinations(payload: unknown): Destinations {
  const schedule = record(payload);
  const items = itemsOf(schedule.payout);
  return {
    walletId: String(schedule.walletId ?? ''),
    addresses: addressesOf(items),
    where: (i) => `Line ${items[i]?.line ?? i + 1}`,
  };
}

function settlementRuleDestinations(walletId: string, payload: unknown): Destinations | null {
  const rule = record(record(payload).rule);
  // A rule switched off forwards nothing.
  if (rule.isActive !== true) return null;
  return { walletId, addresses: [String(record(rule.destination).address ?? '')], where: null };
}

// Every kind says how its recipients are read: a new kind does not compile until it does.
const DESTINATIONS_OF: { readonly [K in OperationKind]: DestinationsReader | null } = {
  withdraw: recipientDestinations,
  withdrawSign: recipientDestinations,
  payout: payoutDestinations,
  payoutSchedule: (_walletId, payload) => payoutScheduleDestinations(payload),
  settlementRule: settlementRuleDestinations,
  settlementToggle: settlementToggleDestinations,
  contractWrite: contractDestinations,
  contractSign: contractDestinations,
  retry: (walletId, _payload, review) => retryDestinations(walletId, review),
  typedDataSign: signatureDestinations,
  // A swap's proceeds stay at its address.
  swap: null,
  userCreate: null,
  userReset: null,
  userRole: null,
  userEnable: null,
  userDisable: null,
  policyEdit: null,
  limitEdit: null,
  freezeLift: null,
  walletConnect: null,
  walletRotate: null,
  walletRemove: null,
  addressBookSave: null,
  coolingOffEdit: null,
  serviceTokenCreate: null,
  serviceTokenRotate: null,
  privateKeyReveal: null,
  whitelistAdd: null,
  whitelistRemove: null,
  beneficiaryDelete: null,
};

/**
 * The recipients of a request that pays addresses: withdrawals (sent or sign-only), payout files, payout
 * schedules (each run is a payout file of its own), an auto-settlement rule in force, the rules a wallet's
 * auto-settlement switched on puts in force, the payees and spenders of decoded contract calls (written or
 * signed), a permit's spender and an authorization's recipient, and the recipient of a retried withdrawal. `review` is the review stored with the request: what the
 * console learnt from the service when the request was made (a retried transaction, the wallet's rules). Null
 * for the kinds that pay no address of their choosing (a swap's proceeds stay at its address; configuration).
 */
function destinationsOf(
  type: string,
  walletId: string,
  payload: unknown,
  review: unknown,
): Destinations | null {
  const read = isOperationKind(type) ? DESTINATIONS_OF[type] : null;
  return read ? read(walletId, payload, review) : null;
}

/**
 * Why the address book's rules refuse the request now (without what became of the request), or null. One
 * statement, none for the kinds that pay no address: it runs when the request is made, inside the final
 * approval's transaction and just before sending. `review`: the review stored with the request.
 */
export async function destinationRefusal(
  db: Pick<ConsoleDb, 'select'>,
  type: string,
  walletId: string,
  payload: unknown,
  review: unknown,
  now: Date,
): Promise<string | null> {
  const destinations = destinationsOf(type, walletId, payload, review);
  if (!destinations || (destinations.addresses.length === 0 && !destinations.unknown)) return null;
  const { policy, problems } = await checkDestinations(
    db,
    destinations.walletId,
    destinations.addresses,
    now,
  );
  if (destinations.unknown && policy.destinationPolicy) return destinations.unknown;
  if (problems.length === 0) return null;
  return describeDestinationProblems(problems, destinations.where ?? undefined);
}
