import 'server-only';
// The life of an operation request (DESIGN.md, "Money-moving and signing operations"). Every status change
// in the engine goes through `assertTransition`, and the exactly-once steps are conditional updates whose
// WHERE clause names the allowed source states of this table.

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

export function canTransition(from: RequestStatus, to: RequestStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export class TransitionError extends Error {
  constructor(
    readonly from: string,
    readonly to: string,
  ) {
    super(`A request cannot go from ${from} to ${to}`);
  }
}

export function assertTransition(from: string, to: RequestStatus): void {
  if (!isRequestStatus(from) || !canTransition(from, to)) throw new TransitionError(from, to);
}

export function isRequestStatus(value: string): value is RequestStatus {
  return (REQUEST_STATUSES as readonly string[]).includes(value);
}

/** The source states from which `to` may be reached: the WHERE clause of a conditional update. */
export function sourcesOf(to: RequestStatus): RequestStatus[] {
  return REQUEST_STATUSES.filter((from) => canTransition(from, to));
}
