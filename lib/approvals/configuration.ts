// Configuration changes as approval requests: creating a user, a reset link, changing a role, enabling a user, editing the
// approval policy, lifting the freeze, changing wallet connections, the address book and its cooling-off, a payout schedule. A second admin approves each; the
// console carries it out itself when the last approval lands. Browser-safe: the review panels read these.
import type { Role } from '@/lib/roles';
import type { AddressBookSaveReview, CoolingOffEditReview } from './address-book';
import { CUSTODY_SETTINGS_KINDS, type CustodySettingsReview } from './custody-settings';
import type { SpendingRuleValues } from './limits';
import type { PayoutScheduleReview } from './payout-schedules';
import type { PolicyValues } from './policy';
import type { ServiceTokenCreateReview, ServiceTokenRotateReview } from './service-tokens';

export const CONFIGURATION_KINDS = [
  'userCreate',
  'userReset',
  'userRole',
  'userEnable',
  'userDisable',
  'policyEdit',
  'limitEdit',
  'freezeLift',
  'walletConnect',
  'walletRotate',
  'walletRemove',
  'addressBookSave',
  'coolingOffEdit',
  'serviceTokenCreate',
  'serviceTokenRotate',
  'payoutSchedule',
  'privateKeyReveal',
  ...CUSTODY_SETTINGS_KINDS,
] as const;
export type ConfigurationKind = (typeof CONFIGURATION_KINDS)[number];

function isConfigurationKind(value: string): value is ConfigurationKind {
  return (CONFIGURATION_KINDS as readonly string[]).includes(value);
}

/** The wallet id configuration requests are filed under: they act on the console, not on a wallet. */
export const CONSOLE_SCOPE = 'console';

type ReviewBase = {
  /** Why an approver should look twice (e.g. the new user is an admin). */
  warnings: string[];
  builtAt: string;
};

export type PersonRef = {
  id: string;
  email: string;
  name: string;
  role: Role;
};

export type UserCreateReview = ReviewBase & { kind: 'userCreate'; email: string; name: string; role: Role };

/** What a reset link replaces: the password alone, or the password and every second factor. */
export const USER_RESET_SCOPES = ['password', 'password-and-factors'] as const;
export type UserResetScope = (typeof USER_RESET_SCOPES)[number];

/** A reset link: the person's password (and maybe factors) stop working; they set new ones from their mailbox. */
export type UserResetReview = ReviewBase & {
  kind: 'userReset';
  user: PersonRef;
  scope: UserResetScope;
  /** Second factors the person has now (removed with `password-and-factors`). */
  factors: number;
};
export type UserRoleReview = ReviewBase & { kind: 'userRole'; user: PersonRef; from: Role; to: Role };
export type UserEnableReview = ReviewBase & {
  kind: 'userEnable';
  user: PersonRef;
  disabledAt: string | null;
};
/** Disabling an admin: the other admins decide, as for enabling one. */
export type UserDisableReview = ReviewBase & { kind: 'userDisable'; user: PersonRef };

/** One policy field before and after: the review shows only what changes, and says so for the rest. */
export type PolicyDiffRow = {
  field: 'approvals' | 'thresholdUsd' | 'expirySeconds';
  label: string;
  before: string;
  after: string;
  changed: boolean;
};

export type PolicyEditReview = ReviewBase & {
  kind: 'policyEdit';
  operationType: string;
  operationLabel: string;
  before: PolicyValues;
  after: PolicyValues;
  diff: PolicyDiffRow[];
};

/** Adding or removing a spending limit: the rule in words and as stored. */
export type LimitEditReview = ReviewBase & {
  kind: 'limitEdit';
  action: 'add' | 'remove';
  rule: string;
  values: SpendingRuleValues;
};

export type FreezeLiftReview = ReviewBase & {
  kind: 'freezeLift';
  frozen: boolean;
  frozenBy: string | null;
  frozenSince: string | null;
  /** Approved requests held by the freeze: they are sent when it is lifted. */
  heldApproved: number;
};

export type WalletRef = {
  id: string;
  name: string;
  network: string;
  blockchain: string;
  address: string;
};

export type WalletConnectReview = ReviewBase & {
  kind: 'walletConnect';
  wallet: WalletRef;
  apiKeyLast4: string;
};
export type WalletRotateReview = ReviewBase & {
  kind: 'walletRotate';
  wallet: WalletRef;
  previousApiKeyLast4: string | null;
  apiKeyLast4: string;
};
export type WalletRemoveReview = ReviewBase & { kind: 'walletRemove'; wallet: WalletRef };

/** How long after approval the requester may see the private key, once. */
export const PRIVATE_KEY_REVEAL_MINUTES = 15;

/** Showing an address's private key to the admin who asks: whoever holds it can move the address's funds alone. */
export type PrivateKeyRevealReview = ReviewBase & {
  kind: 'privateKeyReveal';
  walletId: string;
  walletName: string;
  addressId: string;
  address: string;
  addressName: string | null;
};

/** The email a new user or a reset sent: where it went, never the link. */
export type InvitationOutcome = {
  email: string;
  /** When the link stops working (ISO). */
  expiresAt: string;
  /** False when the mail server refused or could not be reached. */
  delivered: boolean;
  /** Why it may not have left, in words. */
  error?: string;
};

/** Where the account's latest link stands now: read when the request page is built, never stored. */
export type InvitationStatus = {
  purpose: 'invitation' | 'reset';
  email: string;
  state: 'open' | 'expired' | 'accepted';
  sentAt: string;
  expiresAt: string;
  usedAt: string | null;
  /** Why the latest email may not have left, in words. */
  error: string | null;
  /** The person looking may send a new link (an admin, while the link is unused and the account enabled). */
  canResend: boolean;
};

/** What carrying out a configuration request left: one sentence, and for a new user or a reset the email sent. */
export type ConfigurationResult = {
  kind: ConfigurationKind;
  message: string;
  /** A new user's id, or the id of the user a reset was for. */
  userId?: string;
  /** The invitation or reset link emailed to the person (never the link). */
  invitation?: InvitationOutcome;
  /** The request page's live view of that link. */
  invitationStatus?: InvitationStatus;
  /** A service token made or rotated: its id, and whether its secret waits for the requester or was shown. */
  tokenId?: string;
  tokenSecret?: 'waiting' | 'shown';
  /** An approved private key reveal: whether the key waits for the requester (until `revealUntil`) or was shown. */
  privateKey?: 'waiting' | 'shown';
  revealUntil?: string;
  walletId?: string;
  addressId?: string;
  /** The address's name, or the address itself, as the request page names it. */
  addressLabel?: string;
};

/** "3 approvers" / "10,000 USD" / "24 hours": how a policy value reads in the review. */
function describePolicyValue(field: PolicyDiffRow['field'], values: PolicyValues): string {
  if (field === 'approvals') return `${values.approvals} approver${values.approvals === 1 ? '' : 's'}`;
  if (field === 'thresholdUsd')
    return values.thresholdUsd === null
      ? 'no threshold'
      : `${values.thresholdUsd.toLocaleString('en-US')} USD`;
  const s = values.expirySeconds;
  if (s % 86_400 === 0) return `${s / 86_400} day${s === 86_400 ? '' : 's'}`;
  if (s % 3_600 === 0) return `${s / 3_600} hour${s === 3_600 ? '' : 's'}`;
  if (s % 60 === 0) return `${s / 60} minute${s === 60 ? '' : 's'}`;
  return `${s} seconds`;
}

const POLICY_FIELDS: Array<[PolicyDiffRow['field'], string]> = [
  ['approvals', 'Approvals needed'],
  ['thresholdUsd', 'USD threshold (one more approver above it)'],
  ['expirySeconds', 'Expiry'],
];

export function policyDiff(before: PolicyValues, after: PolicyValues): PolicyDiffRow[] {
  return POLICY_FIELDS.map(([field, label]) => {
    const b = describePolicyValue(field, before);
    const a = describePolicyValue(field, after);
    return { field, label, before: b, after: a, changed: before[field] !== after[field] };
  });
}

export type ConfigurationReview =
  | UserCreateReview
  | UserResetReview
  | UserRoleReview
  | UserEnableReview
  | UserDisableReview
  | PolicyEditReview
  | LimitEditReview
  | FreezeLiftReview
  | WalletConnectReview
  | WalletRotateReview
  | WalletRemoveReview
  | AddressBookSaveReview
  | CoolingOffEditReview
  | ServiceTokenCreateReview
  | ServiceTokenRotateReview
  | PayoutScheduleReview
  | PrivateKeyRevealReview
  | CustodySettingsReview;

/** Whether a request's review is a configuration change's (the request page shows its own panel). */
export function isConfigurationReview(review: { kind: string }): review is ConfigurationReview {
  return isConfigurationKind(review.kind);
}
