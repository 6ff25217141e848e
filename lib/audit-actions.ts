// Audit actions in words: the log stores short codes (`withdraw.approve`); people read "Approved a
// withdrawal" and search by either. Browser-safe, so the page, the export and the search agree.
import { OPERATION_KIND_WORDS, OPERATION_KINDS } from '@/lib/approvals/kinds';

export interface AuditActionWords {
  /** What happened, as a sentence without a subject: "Approved a withdrawal". */
  label: string;
  /** The part of the console it belongs to: "Approvals", "Users". */
  area: string;
}

// Every operation kind that goes through four-eyes approval writes `${kind}.${step}`: the kinds and their
// words come from the one list in lib/approvals/kinds, the steps are the ones the engine audits.
const APPROVAL_STEPS: Record<string, (noun: string) => string> = {
  request: (noun) => `Requested ${noun}`,
  approve: (noun) => `Approved ${noun}`,
  reject: (noun) => `Rejected ${noun}`,
  cancel: (noun) => `Cancelled ${noun}`,
  submit: (noun) => `Submitted ${noun}`,
  resubmit: (noun) => `Resubmitted ${noun}`,
  outcome: (noun) => `Recorded the outcome of ${noun}`,
  expire: (noun) => `Expired ${noun} request`,
  duplicate: (noun) => `Detected a duplicate payment of ${noun}`,
  resolve: (noun) => `Resolved the outcome of ${noun} by hand`,
  'resolve.propose': (noun) => `Proposed the outcome of ${noun}`,
  'resolve.confirm': (noun) => `Confirmed the outcome of ${noun}`,
  'resolve.discard': (noun) => `Discarded the proposed outcome of ${noun}`,
};

const FIXED: Record<string, AuditActionWords> = {
  'auth.sign_in': { label: 'Signed in', area: 'Sign-in' },
  'auth.sign_out': { label: 'Signed out', area: 'Sign-in' },
  'user.add': { label: 'Added a user', area: 'Users' },
  'user.change_role': { label: "Changed a user's role", area: 'Users' },
  'user.disable': { label: 'Disabled a user', area: 'Users' },
  'user.enable': { label: 'Enabled a user', area: 'Users' },
  'user.change_password': { label: 'Changed their password', area: 'Users' },
  'users.manage': { label: 'Managed users', area: 'Users' },
  'wallet.connect': { label: 'Connected a wallet', area: 'Wallets' },
  'wallet.rotate_key': { label: "Rotated a wallet's API key", area: 'Wallets' },
  'wallet.remove': { label: 'Removed a wallet connection', area: 'Wallets' },
  'wallets.manage': { label: 'Managed wallet connections', area: 'Wallets' },
  'whitelist.add': { label: 'Whitelisted an address', area: 'Wallets' },
  'whitelist.remove': { label: 'Removed a whitelisted address', area: 'Wallets' },
  'depositAddress.create': { label: 'Created a deposit address', area: 'Wallets' },
  'beneficiary.delete': { label: 'Deleted a beneficiary', area: 'Wallets' },
  'addressBook.save': { label: 'Changed an address book', area: 'Wallets' },
  'addressBook.export': { label: 'Exported an address book', area: 'Wallets' },
  'addressBook.cooling_off': { label: 'Changed the address book cooling-off', area: 'Approvals' },
  'serviceToken.create': { label: 'Made an API token', area: 'API' },
  'serviceToken.rotate': { label: 'Rotated an API token', area: 'API' },
  'serviceToken.revoke': { label: 'Revoked an API token', area: 'API' },
  'serviceToken.reveal': { label: 'Was shown an API token once', area: 'API' },
  'api.call': { label: 'Called the console API', area: 'API' },
  'payoutSchedule.create': { label: 'Started a payout schedule', area: 'Wallets' },
  'payoutSchedule.run': { label: 'Ran a payout schedule', area: 'Wallets' },
  'payoutSchedule.pause': { label: 'Paused a payout schedule', area: 'Wallets' },
  'payoutSchedule.resume': { label: 'Resumed a payout schedule', area: 'Wallets' },
  'payoutSchedule.end': { label: 'Ended a payout schedule', area: 'Wallets' },
  'privateKey.reveal': { label: 'Revealed a private key', area: 'Wallets' },
  'privateKey.reveal_approved': { label: 'Approved showing a private key', area: 'Wallets' },
  'settlement.edit': { label: 'Edited auto-settlement', area: 'Settlement' },
  'settlement.wallet_toggle': { label: 'Switched auto-settlement on or off', area: 'Settlement' },
  'settlement.rule_create': { label: 'Created a settlement rule', area: 'Settlement' },
  'settlement.rule_update': { label: 'Updated a settlement rule', area: 'Settlement' },
  'transaction.retry': { label: 'Retried a transaction', area: 'Transactions' },
  'transactions.export': { label: 'Exported transactions', area: 'Transactions' },
  'webhook.resend': { label: 'Resent a webhook', area: 'Webhooks' },
  'sandbox.deposit': { label: 'Simulated a deposit', area: 'Sandbox' },
  'contract.read': { label: 'Read a contract', area: 'Contracts' },
  'contract.networkFee': { label: 'Estimated a contract fee', area: 'Contracts' },
  'fee.estimate': { label: 'Estimated a network fee', area: 'Transactions' },
  'policy.edit': { label: 'Changed the approval policy', area: 'Approvals' },
  'limit.edit': { label: 'Changed the spending limits', area: 'Approvals' },
  'freeze.toggle': { label: 'Switched the emergency freeze', area: 'Approvals' },
  'audit.view': { label: 'Opened the audit log', area: 'Audit' },
  'audit.verify': { label: 'Verified the audit chain', area: 'Audit' },
  'audit.export': { label: 'Exported the audit log', area: 'Audit' },
  read: { label: 'Read', area: 'Console' },
};

const KNOWN: Record<string, AuditActionWords> = { ...FIXED };
for (const kind of OPERATION_KINDS) {
  const { noun } = OPERATION_KIND_WORDS[kind];
  for (const [step, sentence] of Object.entries(APPROVAL_STEPS)) {
    KNOWN[`${kind}.${step}`] = { label: sentence(noun), area: 'Approvals' };
  }
}

/** The action in words; a code the console does not know yet is shown as it is. */
export function describeAuditAction(code: string): AuditActionWords {
  return KNOWN[code] ?? { label: code, area: 'Other' };
}

/**
 * Codes whose words contain `text` (case-insensitive): "approval" finds every approval step and the
 * policy, "withdrawal" finds `withdraw.*`. The codes themselves are matched by the database.
 */
export function auditActionsMatching(text: string): string[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [];
  return Object.entries(KNOWN)
    .filter(([, words]) => `${words.label} ${words.area}`.toLowerCase().includes(needle))
    .map(([code]) => code);
}

/** An entry's input as label/value pairs: nested objects flattened to dotted keys, values as text. */
export function auditInputPairs(input: Record<string, unknown>): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  if (Object.keys(input).length === 0) return pairs;
  const walk = (value: unknown, key: string) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const entries = Object.entries(value as Record<string, unknown>);
      if (entries.length === 0) pairs.push([key, '—']);
      for (const [k, v] of entries) walk(v, key ? `${key}.${k}` : k);
      return;
    }
    if (Array.isArray(value)) {
      const simple = value.every((v) => v === null || typeof v !== 'object');
      pairs.push([key, simple ? value.join(', ') || '—' : JSON.stringify(value)]);
      return;
    }
    pairs.push([key, value === null || value === undefined || value === '' ? '—' : String(value)]);
  };
  walk(input, '');
  return pairs;
}
