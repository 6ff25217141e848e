// Every action the console has, against the four roles (DESIGN.md, "Who uses it"). The only source of truth.
import type { Role } from '@/lib/db/schema';

const PERMISSIONS = {
  read: ['admin', 'finance', 'support', 'viewer'],
  'audit.view': ['admin', 'viewer'],
  'webhook.resend': ['admin', 'support'],
  // Requesting a retry; it is sent only after another person approves (retry.approve).
  'transaction.retry': ['admin', 'finance'],
  'retry.approve': ['admin', 'finance'],
  'sandbox.deposit': ['admin', 'finance'],
  'fee.estimate': ['admin', 'finance'],
  'withdraw.request': ['admin', 'finance'],
  'withdraw.approve': ['admin', 'finance'],
  'withdrawSign.request': ['admin', 'finance'],
  'withdrawSign.approve': ['admin', 'finance'],
  'swap.request': ['admin', 'finance'],
  'swap.approve': ['admin', 'finance'],
  'contract.read': ['admin', 'finance'],
  'contractWrite.request': ['admin'],
  'contractWrite.approve': ['admin', 'finance'],
  'contractSign.request': ['admin'],
  'contractSign.approve': ['admin', 'finance'],
  'typedDataSign.request': ['admin'],
  'typedDataSign.approve': ['admin', 'finance'],
  // A new child address receives deposits only; support opens them for customers.
  'depositAddress.create': ['admin', 'finance', 'support'],
  'privateKey.reveal': ['admin'],
  'users.manage': ['admin'],
  'wallets.manage': ['admin'],
  'policy.edit': ['admin'],
  'freeze.toggle': ['admin'],
  // Configuration changes: one admin requests, another approves (never the requester, never someone the
  // requester added or promoted); the console carries them out when the last approval lands.
  'userCreate.request': ['admin'],
  'userCreate.approve': ['admin'],
  // A reset link: the person's password (and maybe factors) stop working and a link goes to their own mailbox.
  'userReset.request': ['admin'],
  'userReset.approve': ['admin'],
  'userRole.request': ['admin'],
  'userRole.approve': ['admin'],
  'userEnable.request': ['admin'],
  'userEnable.approve': ['admin'],
  'userDisable.request': ['admin'],
  'userDisable.approve': ['admin'],
  'policyEdit.request': ['admin'],
  'policyEdit.approve': ['admin'],
  'limitEdit.request': ['admin'],
  'limitEdit.approve': ['admin'],
  'freezeLift.request': ['admin'],
  'freezeLift.approve': ['admin'],
  'walletConnect.request': ['admin'],
  'walletConnect.approve': ['admin'],
  'walletRotate.request': ['admin'],
  'walletRotate.approve': ['admin'],
  'walletRemove.request': ['admin'],
  'walletRemove.approve': ['admin'],
  // Showing a private key: an admin asks, a second admin approves, and the asker sees it once (privateKey.reveal).
  'privateKeyReveal.request': ['admin'],
  'privateKeyReveal.approve': ['admin'],
  // The console's address book: adding or changing entries, and the cooling-off before a new one is paid.
  'addressBookSave.request': ['admin'],
  'addressBookSave.approve': ['admin'],
  'coolingOffEdit.request': ['admin'],
  'coolingOffEdit.approve': ['admin'],
  // Service tokens for the console's API: made and rotated with a second admin's approval; revoking one takes
  // effect at once (it only takes power away).
  'serviceTokenCreate.request': ['admin'],
  'serviceTokenCreate.approve': ['admin'],
  'serviceTokenRotate.request': ['admin'],
  'serviceTokenRotate.approve': ['admin'],
  'serviceToken.revoke': ['admin'],
  // A payout schedule is approved once by a second person; each of its runs is then a payout request
  // approved like any other. Pausing, resuming and ending one are the requesters' too.
  'payoutSchedule.request': ['admin', 'finance'],
  'payoutSchedule.approve': ['admin', 'finance'],
  // The custody service's settings that decide where money goes (auto-settlement, the whitelist, beneficiaries):
  // one admin requests, another approves, and the console sends the change when the last approval lands.
  'settlementToggle.request': ['admin'],
  'settlementToggle.approve': ['admin'],
  'settlementRule.request': ['admin'],
  'settlementRule.approve': ['admin'],
  'whitelistAdd.request': ['admin'],
  'whitelistAdd.approve': ['admin'],
  'whitelistRemove.request': ['admin'],
  'whitelistRemove.approve': ['admin'],
  'beneficiaryDelete.request': ['admin'],
  'beneficiaryDelete.approve': ['admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof PERMISSIONS;
export const ACTIONS = Object.keys(PERMISSIONS) as Action[];

export function can(role: Role | undefined | null, action: Action): boolean {
  if (!role) return false;
  return (PERMISSIONS[action] as readonly Role[]).includes(role);
}

/** The roles that hold an action, in the table's order. */
export function rolesWith(action: Action): readonly Role[] {
  return PERMISSIONS[action];
}
