// The address book as the browser sees it: entries of a wallet (the console's own, and the service's
// beneficiaries and whitelisted addresses), the cooling-off rule, and the reviews of address-book changes.

/** Where an entry comes from: the console's own book (approved by two people) or the custody service. */
export type AddressBookSource = 'console' | 'whitelisted' | 'beneficiary';

export const ADDRESS_BOOK_SOURCE_LABELS: Record<AddressBookSource, string> = {
  console: 'Address book',
  whitelisted: 'Whitelisted (service)',
  beneficiary: 'Beneficiary (service)',
};

export interface AddressBookEntryView {
  /** The console entry's id, or `<source>:<service id>` for the service's entries. */
  id: string;
  source: AddressBookSource;
  name: string;
  address: string;
  chain: string;
  tags: string[];
  notes: string;
  /** When the entry (its current address) was added; null when the service does not say. */
  since: string | null;
  /** Console entries: when the cooling-off ends (ISO); null for the service's entries. */
  usableFrom: string | null;
}

/** A book entry as the forms offer it; `coolingOffUntil` is set while a console entry cools off. */
export interface BookOption {
  id: string;
  name: string;
  address: string;
  source: AddressBookSource;
  tags: string[];
  coolingOffUntil: string | null;
  /** A service entry (whitelisted, beneficiary) while the destination policy is on: it cannot be paid. */
  outsideBook: boolean;
}

/** A new entry waits this long before it can receive money, until an admin changes the policy. */
export const DEFAULT_COOLING_OFF_SECONDS = 24 * 60 * 60;
export const MAX_COOLING_OFF_SECONDS = 30 * 24 * 60 * 60;

/** When an entry whose address was approved at `since` may receive money. */
export function usableFrom(since: Date, coolingOffSeconds: number): Date {
  return new Date(since.getTime() + coolingOffSeconds * 1000);
}

/** "3 days", "5 hours", "12 minutes", "40 seconds": how long something has existed or has left. */
export function describeDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (s >= 86_400) return unit(Math.floor(s / 86_400), 'day');
  if (s >= 3_600) return unit(Math.floor(s / 3_600), 'hour');
  if (s >= 60) return unit(Math.floor(s / 60), 'minute');
  return unit(s, 'second');
}

/** Why an entry still in its cooling-off period cannot be paid yet (without what happened to the request). */
export function coolingOffProblem(name: string, address: string, until: Date, now: Date): string {
  return `${name} (${address}) was added to the address book recently: it can receive money from ${until.toISOString().replace('T', ' ').slice(0, 16)} UTC (in ${describeDuration(until.getTime() - now.getTime())}).`;
}

/** The setting's words, as the policy page and reviews name it. */
export const DESTINATION_POLICY_LABEL = 'Money goes only to address-book entries past their cooling-off';

/**
 * Why an address outside the console's address book cannot be paid while the destination policy is on. The
 * service's whitelist and beneficiaries do not count: whitelisting alone must not open a way out.
 */
export function outsideBookProblem(address: string): string {
  return `${address} is not in this wallet's address book: money goes only to address book entries past their cooling-off (the destination policy). A whitelisted address or a beneficiary counts once an admin adds it to the book.`;
}

/** The warning every review with a recipient carries while the destination policy is off. */
export const DESTINATION_POLICY_OFF_WARNING =
  'The destination policy is off: money may go to addresses outside the address book (typed by hand, whitelisted or beneficiaries) with a warning only.';

/** One entry of an address-book change as a reviewer sees it: before (a change) and after. */
export interface AddressBookChangeRow {
  name: string;
  address: string;
  chain: string;
  tags: string[];
  notes: string;
  /** A change of an existing entry: what it was. */
  before: { name: string; address: string; chain: string; tags: string[]; notes: string } | null;
}

export type AddressBookSaveReview = {
  kind: 'addressBookSave';
  walletId: string;
  walletName: string;
  entries: AddressBookChangeRow[];
  /** How long a new address waits after approval before it can receive money. */
  coolingOffSeconds: number;
  warnings: string[];
  builtAt: string;
};

export type CoolingOffEditReview = {
  kind: 'coolingOffEdit';
  beforeSeconds: number;
  afterSeconds: number;
  /** The destination policy before and after (absent in requests made before the setting existed: unchanged). */
  destinationPolicyBefore?: boolean;
  destinationPolicyAfter?: boolean;
  warnings: string[];
  builtAt: string;
};

/** The address-book part of a withdrawal review item: the entry paid, or null outside the book. */
export interface ReviewBookEntry {
  name: string;
  source: AddressBookSource;
  /** When the entry was added (ISO), when known. */
  since: string | null;
}
