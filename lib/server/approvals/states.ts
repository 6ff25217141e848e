import 'server-only';
// The life of an operation request (DESIGN.md, "Money-moving and signing operations"); the statuses, their
// moves and labels are in the browser-safe lib/approvals/statuses.ts. Every status change in the engine goes
// through `assertTransition`, and the exactly-once steps are conditional updates whose WHERE clause names the
// allowed source states of that table.
import {
  FINAL_STATUSES,
  isRequestStatus,
  REQUEST_STATUSES,
  type RequestStatus,
  TRANSITIONS,
} from '@/lib/approvals/statuses';

export { FINAL_STATUSES, REQUEST_STATUSES, type RequestStatus };

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

/** The source states from which `to` may be reached: the WHERE clause of a conditional update. */
export function sourcesOf(to: RequestStatus): RequestStatus[] {
  return REQUEST_STATUSES.filter((from) => canTransition(from, to));
}
