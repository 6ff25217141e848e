// Shapes of approval requests as the browser sees them (JSON from the server: dates as ISO strings).

import type { ConfigurationResult } from './configuration';
import type { OperationReview } from './kinds';
import type { PayoutResult } from './payouts';
import { STATUS_LABELS as LABELS, MOVING_STATUSES as MOVING } from './statuses';
import type { SignOnlyResult } from './withdrawals';

export interface RequestSummaryDto {
  id: string;
  type: string;
  typeLabel: string;
  status: string;
  walletId: string;
  summary: string;
  amountUsd: number | null;
  requesterEmail: string;
  approvals: number;
  requiredApprovals: number;
  createdAt: string;
  expiresAt: string;
}

// Browser-safe approval types shared with the engine live in lib/approvals.
export {
  RESOLUTION_LABELS,
  type RetryReview,
} from '@/lib/approvals/types';

import type { ResolutionVerdict } from '@/lib/approvals/types';

export interface RequestDetailDto extends RequestSummaryDto {
  /** The review stored with the request, keyed by its `kind` (the operation kind). */
  review: OperationReview;
  payloadHash: string;
  lastError: string | null;
  rejectReason: string | null;
  confirmedAbsentAt: string | null;
  submitAttempts: number;
  result: SignOnlyResult | null;
  /** A payout file's batches and each one's outcome at the service, once submission began. */
  payoutResult: PayoutResult | null;
  /** A configuration change's outcome (never a secret: a new user's one-time password is taken separately). */
  configurationResult: ConfigurationResult | null;
  decisions: Array<{
    approverEmail: string;
    role: string;
    decision: string;
    reason: string | null;
    createdAt: string;
  }>;
  items: Array<{
    index: number;
    reference: string;
    transactionId: string | null;
    hash: string | null;
    status: string | null;
    confirmations: number | null;
    error: string | null;
  }>;
  timeline: Array<{
    id: number;
    at: string;
    kind: string;
    actorEmail: string | null;
    detail: Record<string, unknown>;
  }>;
  can: {
    approve: boolean;
    cancel: boolean;
    resubmit: boolean;
    /** Look the request up at the service now (also wakes a parked follow-up). */
    checkNow: boolean;
    proposeResolution: boolean;
    resolutionVerdicts: ResolutionVerdict[];
    confirmResolution: boolean;
    discardResolution: boolean;
    /** Why this person's decision would not count as another person's (not independent of a party), if so. */
    notIndependent: string | null;
  };
  /** How the console follows the request at the service. */
  followUp: {
    lastAttemptAt: string | null;
    /** When the service last answered a lookup that would have shown the transaction. */
    lastLookupAt: string | null;
    nextAt: string | null;
    /** Polling stopped: the request waits for a webhook or a person. */
    parkedAt: string | null;
    rounds: number;
    /** Before this, "the service shows nothing" does not mean "not executed". */
    windowEndsAt: string;
  };
  /** DUPLICATE: every upstream transaction seen per reference. */
  duplicates: Array<{
    reference: string;
    transactions: Array<{ id: string; status: string; hash: string | null; createdAt: string | null }>;
  }>;
  /** A manual resolution recorded by one person (and, once confirmed, by a second). */
  resolution: {
    verdict: ResolutionVerdict;
    transactionIds: string[];
    note: string;
    byEmail: string;
    at: string;
    confirmedByEmail: string | null;
    confirmedAt: string | null;
  } | null;
  frozen: boolean;
  isRequester: boolean;
  /** The submitting approval (and a resubmission) carries the custody service's two-factor code. */
  requiresTwoFactor?: boolean;
}

/** Statuses after which the page keeps polling (something is still moving upstream). */
export const MOVING_STATUSES: readonly string[] = MOVING;

/**
 * The references a request's doubt is about: its items the service has shown no transaction for. A payout file
 * whose first batches were accepted is in doubt only for the rest; a request with no item in doubt (none sent
 * yet, or a change without transactions) is about all of them.
 */
export function referencesInDoubt(
  items: ReadonlyArray<{ reference: string; transactionId: string | null }>,
): {
  references: string[];
  atService: number;
} {
  const open = items.filter((item) => item.transactionId === null);
  if (open.length === 0) return { references: items.map((item) => item.reference), atService: 0 };
  return { references: open.map((item) => item.reference), atService: items.length - open.length };
}

/** The words an approver confirms before resubmitting a request whose first outcome was unknown. */
export const RESUBMIT_ACKNOWLEDGEMENT =
  'I checked: the custody service shows no payment with these references. Send it again with the same references.';

/** Labels of request statuses, looked up by any status string (see `statusLabel` for a fallback). */
export const STATUS_LABELS: Readonly<Record<string, string>> = LABELS;
