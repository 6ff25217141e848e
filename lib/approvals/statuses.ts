// The life of an operation request (DESIGN.md, "Money-moving and signing operations"): its statuses, the
// moves between them, their labels and the groups pages show. Browser-safe: the engine and the pages read
// the same lists.

export const REQUEST_STATUSES = [
  'PENDING_APPROVAL',
  'APPROVED',
  'SUBMITTING',
  'SUBMITTED',
  'SUCCESS',
  'FAILED',
  'REJECTED',
  'EXPIRED',
  'CANCELLED',
  'SUBMIT_FAILED',
  'OUTCOME_UNKNOWN',
  'DUPLICATE',
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const TRANSITIONS: Readonly<Record<RequestStatus, readonly RequestStatus[]>> = {
  PENDING_APPROVAL: ['APPROVED', 'REJECTED', 'EXPIRED', 'CANCELLED'],
  // Approved requests wait here while the console is frozen, and submit when it thaws.
  APPROVED: ['SUBMITTING'],
  SUBMITTING: ['SUBMITTED', 'SUBMIT_FAILED', 'OUTCOME_UNKNOWN'],
  // SUCCESS / FAILED also by a two-person manual resolution when the service offers no way to follow it.
  SUBMITTED: ['SUCCESS', 'FAILED', 'DUPLICATE'],
  // An upstream 4xx: nothing happened upstream, an approver may send it again (same references).
  // Or found upstream after all by the check before a resubmission (linked, not sent again).
  SUBMIT_FAILED: ['SUBMITTING', 'SUBMITTED'],
  // Reconciled by reference: found upstream (SUBMITTED), or confirmed absent and sent again (SUBMITTING).
  // Or settled by two people by hand ("paid, transaction X": SUCCESS), or two upstream transactions carry
  // one reference (DUPLICATE).
  OUTCOME_UNKNOWN: ['SUBMITTED', 'SUBMITTING', 'SUCCESS', 'DUPLICATE'],
  // Two upstream transactions with one request's reference: shown, notified and audited; a person acts.
  DUPLICATE: [],
  // A second transaction with the request's reference seen after it settled (e.g. a late webhook).
  SUCCESS: ['DUPLICATE'],
  FAILED: ['DUPLICATE'],
  REJECTED: [],
  EXPIRED: [],
  CANCELLED: [],
};

export const STATUS_LABELS: Record<RequestStatus, string> = {
  PENDING_APPROVAL: 'Pending approval',
  APPROVED: 'Approved',
  SUBMITTING: 'Submitting',
  SUBMITTED: 'Submitted',
  SUCCESS: 'Success',
  FAILED: 'Failed',
  REJECTED: 'Rejected',
  EXPIRED: 'Expired',
  CANCELLED: 'Cancelled',
  SUBMIT_FAILED: 'Submit failed',
  OUTCOME_UNKNOWN: 'Outcome unknown',
  DUPLICATE: 'Duplicate payment',
};

/** "Pending approval" for a known status; an unknown one is shown as it is. */
export function statusLabel(status: string): string {
  return isRequestStatus(status) ? STATUS_LABELS[status] : status;
}

export function isRequestStatus(value: string): value is RequestStatus {
  return (REQUEST_STATUSES as readonly string[]).includes(value);
}

/** States in which nothing more is sent or decided (a settled request can still be found duplicated). */
export const FINAL_STATUSES: readonly RequestStatus[] = REQUEST_STATUSES.filter((s) =>
  TRANSITIONS[s].every((to) => to === 'DUPLICATE'),
);

/** States a person is still waiting on (shown as "open"). */
export const OPEN_STATUSES: readonly RequestStatus[] = [
  'PENDING_APPROVAL',
  'APPROVED',
  'SUBMIT_FAILED',
  'OUTCOME_UNKNOWN',
  'DUPLICATE',
];

/** The "In progress" list: from waiting for approval until the service settles it. */
export const IN_PROGRESS_STATUSES: readonly RequestStatus[] = [
  'PENDING_APPROVAL',
  'APPROVED',
  'SUBMITTING',
  'SUBMITTED',
  'SUBMIT_FAILED',
  'OUTCOME_UNKNOWN',
];

/** Statuses after which the page keeps polling (something is still moving upstream). */
export const MOVING_STATUSES: readonly RequestStatus[] = [
  'APPROVED',
  'SUBMITTING',
  'SUBMITTED',
  'OUTCOME_UNKNOWN',
];

/** Statuses whose page shows the outcome panel (submission, follow-up, duplicates). */
export const OUTCOME_STATUSES: readonly RequestStatus[] = [
  'SUBMITTING',
  'SUBMITTED',
  'OUTCOME_UNKNOWN',
  'SUBMIT_FAILED',
  'DUPLICATE',
];

/** Statuses in which the console's freeze holds the request back (it is shown on the request). */
export const FREEZE_AFFECTED_STATUSES: readonly RequestStatus[] = [
  'APPROVED',
  'SUBMIT_FAILED',
  'OUTCOME_UNKNOWN',
  'PENDING_APPROVAL',
];

/** Statuses the follow-up (lookups, webhooks) works on. */
export const FOLLOWED_STATUSES = ['SUBMITTED', 'OUTCOME_UNKNOWN'] as const satisfies readonly RequestStatus[];
