// The operation kinds of approval requests and, keyed by kind, the review approvers see and the result the
// custody service's answer leaves on the request. Browser-safe: pages pick a panel by `review.kind`.
import type { AddressBookSaveReview, CoolingOffEditReview } from './address-book';
import type {
  ConfigurationResult,
  FreezeLiftReview,
  LimitEditReview,
  PolicyEditReview,
  PrivateKeyRevealReview,
  UserCreateReview,
  UserDisableReview,
  UserEnableReview,
  UserResetReview,
  UserRoleReview,
  WalletConnectReview,
  WalletRemoveReview,
  WalletRotateReview,
} from './configuration';
import { CONFIGURATION_KINDS } from './configuration';
import type { ContractResult, ContractReview } from './contracts';
import type {
  BeneficiaryDeleteReview,
  SettlementRuleReview,
  SettlementToggleReview,
  WhitelistAddReview,
  WhitelistRemoveReview,
} from './custody-settings';
import type { PayoutScheduleReview } from './payout-schedules';
import type { PayoutResult, PayoutReview } from './payouts';
import type { ServiceTokenCreateReview, ServiceTokenRotateReview } from './service-tokens';
import type { TypedDataResult, TypedDataReview } from './signing';
import type { SwapResult, SwapReview } from './swaps';
import type { RetryReview } from './types';
import type { SignOnlyResult, WithdrawalReview } from './withdrawals';

export const OPERATION_KINDS = [
  'withdraw',
  'withdrawSign',
  'swap',
  'typedDataSign',
  'contractWrite',
  'contractSign',
  'retry',
  'payout',
  ...CONFIGURATION_KINDS,
] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

/**
 * Each kind for people, the one home of these words: `label` names it in lists, reviews and the policy
 * ("Sign-only withdrawal"); `noun` is the kind inside a sentence, with its article ("Approved a swap").
 */
export const OPERATION_KIND_WORDS: { readonly [K in OperationKind]: { label: string; noun: string } } = {
  withdraw: { label: 'Withdrawal', noun: 'a withdrawal' },
  withdrawSign: { label: 'Sign-only withdrawal', noun: 'a sign-only withdrawal' },
  swap: { label: 'Swap', noun: 'a swap' },
  typedDataSign: { label: 'Typed-data signature', noun: 'a typed-data signature' },
  contractWrite: { label: 'Contract write', noun: 'a contract call' },
  contractSign: { label: 'Sign-only contract write', noun: 'a contract signature' },
  retry: { label: 'Retry of a failed transaction', noun: 'a transaction retry' },
  payout: { label: 'Payout file', noun: 'a payout file' },
  userCreate: { label: 'New user', noun: 'a new user' },
  userReset: { label: 'Reset link', noun: 'a reset link' },
  userRole: { label: 'Role change', noun: 'a role change' },
  userEnable: { label: 'Enabling a user', noun: 'a user enablement' },
  userDisable: { label: 'Disabling an admin', noun: 'an admin’s disablement' },
  policyEdit: { label: 'Approval policy change', noun: 'an approval policy change' },
  limitEdit: { label: 'Spending limit change', noun: 'a spending limit change' },
  freezeLift: { label: 'Lifting the freeze', noun: 'a freeze lift' },
  walletConnect: { label: 'Wallet connection', noun: 'a wallet connection' },
  walletRotate: { label: 'Wallet key rotation', noun: 'a wallet key rotation' },
  walletRemove: { label: 'Wallet removal', noun: 'a wallet removal' },
  addressBookSave: { label: 'Address book change', noun: 'an address book change' },
  coolingOffEdit: { label: 'Address book policy change', noun: 'an address book policy change' },
  serviceTokenCreate: { label: 'New API token', noun: 'a new API token' },
  serviceTokenRotate: { label: 'API token rotation', noun: 'an API token rotation' },
  payoutSchedule: { label: 'Payout schedule', noun: 'a payout schedule' },
  privateKeyReveal: { label: 'Showing a private key', noun: 'a private key reveal' },
  settlementToggle: { label: 'Wallet auto-settlement on or off', noun: 'a wallet auto-settlement switch' },
  settlementRule: { label: 'Auto-settlement rule', noun: 'an auto-settlement rule change' },
  whitelistAdd: { label: 'Whitelisting an address', noun: 'a whitelisting' },
  whitelistRemove: { label: 'Removing a whitelisted address', noun: 'a whitelist removal' },
  beneficiaryDelete: { label: 'Beneficiary deletion', noun: 'a beneficiary deletion' },
};

export function isOperationKind(value: string): value is OperationKind {
  return (OPERATION_KINDS as readonly string[]).includes(value);
}

/**
 * How a kind's money counts against the spending limits: `recipients`, each payload item's amount to its address
 * (priced by the review's lines); `swap`, the amount sold (against USD limits only when priced); `contractCalls`,
 * the transfers and allowances the review decoded from each call; `signature`, a permit's allowance or an
 * authorization's transfer. Contract writes and signatures move or release tokens as surely as a withdrawal.
 */
export type LimitCounting = 'recipients' | 'swap' | 'contractCalls' | 'signature';

/** What the console does with a request of one kind beyond its review, the same everywhere it is asked. */
export interface OperationKindTraits {
  /** How it counts against spending limits; null: limits do not apply to it. */
  limits: LimitCounting | null;
  /** Its payload's `items` are recipients it pays: once sent, past counterparties a look-alike may imitate. */
  paysRecipients: boolean;
  /**
   * What its answer leaves on the request: `service`, the custody service's answer as the request page shows it
   * (signed transactions, a swap's rate, a signature, contract calls); `payoutBatches`, a payout file's batches;
   * `configuration`, the outcome of a change the console carries out (or sends, for custody settings).
   */
  result: 'service' | 'payoutBatches' | 'configuration';
}

const CONFIGURATION_TRAITS: OperationKindTraits = {
  limits: null,
  paysRecipients: false,
  result: 'configuration',
};

/** Every kind's traits: a new kind does not compile until it says how limits, recipients and results treat it. */
export const OPERATION_KIND_TRAITS: { readonly [K in OperationKind]: OperationKindTraits } = {
  withdraw: { limits: 'recipients', paysRecipients: true, result: 'service' },
  withdrawSign: { limits: 'recipients', paysRecipients: true, result: 'service' },
  swap: { limits: 'swap', paysRecipients: false, result: 'service' },
  typedDataSign: { limits: 'signature', paysRecipients: false, result: 'service' },
  contractWrite: { limits: 'contractCalls', paysRecipients: false, result: 'service' },
  contractSign: { limits: 'contractCalls', paysRecipients: false, result: 'service' },
  // A retry's payload names the failed transaction, not amounts or recipients.
  retry: { limits: null, paysRecipients: false, result: 'service' },
  payout: { limits: 'recipients', paysRecipients: true, result: 'payoutBatches' },
  userCreate: CONFIGURATION_TRAITS,
  userReset: CONFIGURATION_TRAITS,
  userRole: CONFIGURATION_TRAITS,
  userEnable: CONFIGURATION_TRAITS,
  userDisable: CONFIGURATION_TRAITS,
  policyEdit: CONFIGURATION_TRAITS,
  limitEdit: CONFIGURATION_TRAITS,
  freezeLift: CONFIGURATION_TRAITS,
  walletConnect: CONFIGURATION_TRAITS,
  walletRotate: CONFIGURATION_TRAITS,
  walletRemove: CONFIGURATION_TRAITS,
  addressBookSave: CONFIGURATION_TRAITS,
  coolingOffEdit: CONFIGURATION_TRAITS,
  serviceTokenCreate: CONFIGURATION_TRAITS,
  serviceTokenRotate: CONFIGURATION_TRAITS,
  // Each run of a schedule is a payout file request of its own, counted and listed as such.
  payoutSchedule: CONFIGURATION_TRAITS,
  privateKeyReveal: CONFIGURATION_TRAITS,
  settlementToggle: CONFIGURATION_TRAITS,
  settlementRule: CONFIGURATION_TRAITS,
  whitelistAdd: CONFIGURATION_TRAITS,
  whitelistRemove: CONFIGURATION_TRAITS,
  beneficiaryDelete: CONFIGURATION_TRAITS,
};

/** The traits of a stored request's kind; null for a kind the console does not know. */
export function traitsOf(kind: string): OperationKindTraits | null {
  return isOperationKind(kind) ? OPERATION_KIND_TRAITS[kind] : null;
}

/** The kinds whose traits pass `test`, in the order of `OPERATION_KINDS` (for a query's list of kinds). */
export function kindsWhere(test: (traits: OperationKindTraits) => boolean): OperationKind[] {
  return OPERATION_KINDS.filter((kind) => test(OPERATION_KIND_TRAITS[kind]));
}

interface KindShapes {
  withdraw: { review: WithdrawalReview; result: null };
  withdrawSign: { review: WithdrawalReview; result: SignOnlyResult };
  swap: { review: SwapReview; result: SwapResult };
  typedDataSign: { review: TypedDataReview; result: TypedDataResult };
  contractWrite: { review: ContractReview; result: ContractResult };
  contractSign: { review: ContractReview; result: ContractResult };
  retry: { review: RetryReview; result: null };
  payout: { review: PayoutReview; result: PayoutResult };
  userCreate: { review: UserCreateReview; result: ConfigurationResult };
  userReset: { review: UserResetReview; result: ConfigurationResult };
  userRole: { review: UserRoleReview; result: ConfigurationResult };
  userEnable: { review: UserEnableReview; result: ConfigurationResult };
  userDisable: { review: UserDisableReview; result: ConfigurationResult };
  policyEdit: { review: PolicyEditReview; result: ConfigurationResult };
  limitEdit: { review: LimitEditReview; result: ConfigurationResult };
  freezeLift: { review: FreezeLiftReview; result: ConfigurationResult };
  walletConnect: { review: WalletConnectReview; result: ConfigurationResult };
  walletRotate: { review: WalletRotateReview; result: ConfigurationResult };
  walletRemove: { review: WalletRemoveReview; result: ConfigurationResult };
  addressBookSave: { review: AddressBookSaveReview; result: ConfigurationResult };
  coolingOffEdit: { review: CoolingOffEditReview; result: ConfigurationResult };
  serviceTokenCreate: { review: ServiceTokenCreateReview; result: ConfigurationResult };
  serviceTokenRotate: { review: ServiceTokenRotateReview; result: ConfigurationResult };
  payoutSchedule: { review: PayoutScheduleReview; result: ConfigurationResult };
  privateKeyReveal: { review: PrivateKeyRevealReview; result: ConfigurationResult };
  settlementToggle: { review: SettlementToggleReview; result: ConfigurationResult };
  settlementRule: { review: SettlementRuleReview; result: ConfigurationResult };
  whitelistAdd: { review: WhitelistAddReview; result: ConfigurationResult };
  whitelistRemove: { review: WhitelistRemoveReview; result: ConfigurationResult };
  beneficiaryDelete: { review: BeneficiaryDeleteReview; result: ConfigurationResult };
}

/** What approvers see before deciding on a request of kind `K`. */
export type ReviewOf<K extends OperationKind> = KindShapes[K]['review'];
/** What the service's answer leaves on a request of kind `K` (null: the items' transactions say it all). */
export type ResultOf<K extends OperationKind> = KindShapes[K]['result'];

/** Any request's review; `kind` tells which. */
export type OperationReview = { [K in OperationKind]: ReviewOf<K> }[OperationKind];

/** Whether a stored review is one of the kinds above (a review is stored as JSON with its `kind`). */
export function isOperationReview(value: unknown): value is OperationReview {
  if (typeof value !== 'object' || value === null || !('kind' in value)) return false;
  return typeof value.kind === 'string' && isOperationKind(value.kind);
}

/** Whether a review is of kind `kind` (narrows a preview's review for the form that asked for it). */
export function isReviewOf<K extends OperationKind>(review: OperationReview, kind: K): review is ReviewOf<K> {
  return review.kind === kind;
}
