import 'server-only';
// What several commands share: the refusals thrown inside a transaction so that nothing of it is kept, and the
// spending limits' view of a request.
import type { LimitCheck } from '@/lib/approvals/limits';
import { contributionsOf, refusalMessage } from '../../limits';

/** A spending limit refused the request: thrown inside the transaction so that nothing of it is kept. */
export class LimitRefused extends Error {
  constructor(readonly check: LimitCheck) {
    super(check.refusedBy ? refusalMessage(check.refusedBy) : 'Refused by a spending limit.');
  }
}

/** A caller's own check refused the request inside its transaction (an API token's daily cap). */
export class GuardRefused extends Error {}

/** The address book's rules refused the request at its final approval: nothing of the approval is kept. */
export class DestinationRefused extends Error {}

export function candidateOf(
  type: string,
  walletId: string,
  requesterId: string,
  payload: unknown,
  review: unknown,
) {
  return { walletId, requesterId, contributions: contributionsOf(type, payload, review) };
}

export function limitRefusal(check: LimitCheck) {
  return { ok: false as const, error: new LimitRefused(check).message, status: 422 };
}
