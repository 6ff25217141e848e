// Settings kept at the custody service that decide where money goes: auto-settlement (the wallet's switch and
// its addresses' rules), the whitelist and beneficiaries. Each change is a request a second admin approves; the
// console sends it to the service when the last approval lands. Browser-safe: the review panels read these.
import type { AddressBookSource } from './address-book';
import type { ReviewAddress, ReviewWallet } from './types';

/** The kinds of this file, in the order the policy page lists them. */
export const CUSTODY_SETTINGS_KINDS = [
  'settlementToggle',
  'settlementRule',
  'whitelistAdd',
  'whitelistRemove',
  'beneficiaryDelete',
] as const;
export type CustodySettingsKind = (typeof CUSTODY_SETTINGS_KINDS)[number];

function isCustodySettingsKind(value: string): value is CustodySettingsKind {
  return (CUSTODY_SETTINGS_KINDS as readonly string[]).includes(value);
}

/** An address as a review names it: checksummed, with the address book's name for it when it has one. */
export interface NamedAddress {
  address: string;
  /** The address book's name (the console's book, a whitelisted address or a beneficiary), or null. */
  bookName: string | null;
  bookSource: AddressBookSource | null;
}

/** A rule as people read it: every value in words (`-1`, the service's "no bound", reads "no minimum"). */
export interface RuleView {
  name: string;
  isActive: boolean;
  order: string;
  slippage: string;
  sourceAssets: string;
  sourceBlockchain: string;
  minAmount: string;
  maxAmount: string;
  destination: NamedAddress;
  destinationAsset: string;
  destinationBlockchain: string;
}

/** One field of a rule before and after; `before` is null for a new rule or when the service showed none. */
export interface RuleFieldRow {
  field: keyof Omit<RuleView, 'destination'> | 'destination';
  label: string;
  before: string | null;
  after: string;
  changed: boolean;
}

type ReviewBase = {
  wallet: ReviewWallet;
  /** Why an approver should look twice (a destination outside the address book, no minimum...). */
  warnings: string[];
  builtAt: string;
};

/** The wallet-level switch (#9): on or off, and the wallet-level rules it turns on or off. */
export type SettlementToggleReview = ReviewBase & {
  kind: 'settlementToggle';
  settlementName: string;
  before: boolean;
  after: boolean;
  rules: RuleView[];
};

/** Creating (#10) or changing (#11) a child address's rule: the rule in force beside the proposed one. */
export type SettlementRuleReview = ReviewBase & {
  kind: 'settlementRule';
  action: 'create' | 'update';
  address: ReviewAddress;
  ruleId: string | null;
  /** The rule as the service showed it when the request was made; null for a new rule or when not shown. */
  before: RuleView | null;
  after: RuleView;
  rows: RuleFieldRow[];
};

/** Whitelisting an external address (#6). */
export type WhitelistAddReview = ReviewBase & {
  kind: 'whitelistAdd';
  address: NamedAddress;
  /** The name the address gets at the service. */
  name: string | null;
  disableAutoSweep: boolean;
  enableGaslessWithdraw: boolean;
  showPrivateKey: boolean;
  /** A private key travels sealed with the request and goes to the service once; nobody sees it. */
  privateKeyGiven: boolean;
  metadata: string | null;
};

/** Removing a whitelisted address (the service's unwhitelist extension). */
export type WhitelistRemoveReview = ReviewBase & {
  kind: 'whitelistRemove';
  address: ReviewAddress & { type: string; bookName: string | null };
};

/** Deleting a beneficiary (#7): who it is, as the service listed it. */
export type BeneficiaryDeleteReview = ReviewBase & {
  kind: 'beneficiaryDelete';
  beneficiary: {
    id: string;
    /** Null when the service does not list beneficiaries: then only the id is known. */
    name: string | null;
    address: string | null;
    isDefault: boolean;
    isSettlement: boolean;
    isWhitelisted: boolean;
  };
};

export type CustodySettingsReview =
  | SettlementToggleReview
  | SettlementRuleReview
  | WhitelistAddReview
  | WhitelistRemoveReview
  | BeneficiaryDeleteReview;

/** Whether a request's review is one of these (its panel compares what is in force with what is proposed). */
export function isCustodySettingsReview(review: { kind: string }): review is CustodySettingsReview {
  return isCustodySettingsKind(review.kind);
}

/** What a withdrawal review calls a whitelisted recipient: the whitelisting review warns about it. */
export const WHITELISTED_LABEL = 'Whitelisted (service)';

/** The service's "no bound" for rule amounts and slippage. */
const NO_BOUND = '-1';

export function describeMinimum(value: string, asset: string): string {
  return value === NO_BOUND ? 'no minimum' : `${value} ${asset}`;
}
export function describeMaximum(value: string, asset: string): string {
  return value === NO_BOUND ? 'no maximum' : `${value} ${asset}`;
}
export function describeSlippageTolerance(value: string): string {
  return value === NO_BOUND ? 'no limit' : `${value}%`;
}

/** Whether a rule forwards every deposit however small: a minimum of 0 or none at all. */
export function forwardsEverything(minAmount: string): boolean {
  return minAmount === NO_BOUND || /^0+(\.0+)?$/.test(minAmount);
}

/** "Acme (address book)": the book's name of an address, with where the name comes from. */
export function describeBookName(named: NamedAddress): string | null {
  if (!named.bookName || !named.bookSource) return null;
  const where =
    named.bookSource === 'console'
      ? 'address book'
      : named.bookSource === 'whitelisted'
        ? 'whitelisted at the service'
        : 'beneficiary at the service';
  return `${named.bookName} (${where})`;
}
