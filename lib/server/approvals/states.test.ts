import { describe, expect, it } from 'vitest';
import {
  assertTransition,
  canTransition,
  FINAL_STATUSES,
  REQUEST_STATUSES,
  type RequestStatus,
  sourcesOf,
  TransitionError,
} from './states';

// The expected life of a request, written out: any change to TRANSITIONS must change this table too.
const ALLOWED: Array<[RequestStatus, RequestStatus]> = [
  ['PENDING_APPROVAL', 'APPROVED'],
  ['PENDING_APPROVAL', 'REJECTED'],
  ['PENDING_APPROVAL', 'EXPIRED'],
  ['PENDING_APPROVAL', 'CANCELLED'],
  ['APPROVED', 'SUBMITTING'],
  ['SUBMITTING', 'SUBMITTED'],
  ['SUBMITTING', 'SUBMIT_FAILED'],
  ['SUBMITTING', 'OUTCOME_UNKNOWN'],
  ['SUBMITTED', 'SUCCESS'],
  ['SUBMITTED', 'FAILED'],
  ['SUBMIT_FAILED', 'SUBMITTING'],
  ['OUTCOME_UNKNOWN', 'SUBMITTED'],
  ['OUTCOME_UNKNOWN', 'SUBMITTING'],
  ['SUBMITTED', 'DUPLICATE'],
  ['OUTCOME_UNKNOWN', 'SUCCESS'],
  ['OUTCOME_UNKNOWN', 'DUPLICATE'],
  ['SUBMIT_FAILED', 'SUBMITTED'],
  ['SUCCESS', 'DUPLICATE'],
  ['FAILED', 'DUPLICATE'],
];
const key = (from: string, to: string) => `${from}->${to}`;
const allowed = new Set(ALLOWED.map(([f, t]) => key(f, t)));
const pairs = REQUEST_STATUSES.flatMap((from) => REQUEST_STATUSES.map((to) => [from, to] as const));

describe('request state machine', () => {
  it.each(ALLOWED)('allows %s -> %s', (from, to) => {
    expect(canTransition(from, to)).toBe(true);
    expect(() => assertTransition(from, to)).not.toThrow();
  });

  const forbidden = pairs.filter(([from, to]) => !allowed.has(key(from, to)));
  it(`forbids the other ${forbidden.length} transitions`, () => {
    expect(forbidden.length).toBe(REQUEST_STATUSES.length ** 2 - ALLOWED.length);
  });
  it.each(forbidden)('forbids %s -> %s', (from, to) => {
    expect(canTransition(from, to)).toBe(false);
    expect(() => assertTransition(from, to)).toThrow(TransitionError);
  });

  it('never approves or submits past a final state', () => {
    expect([...FINAL_STATUSES].sort()).toEqual([
      'CANCELLED',
      'DUPLICATE',
      'EXPIRED',
      'FAILED',
      'REJECTED',
      'SUCCESS',
    ]);
  });

  it('reaches SUBMITTING only from APPROVED, SUBMIT_FAILED and OUTCOME_UNKNOWN (the conditional update)', () => {
    expect(sourcesOf('SUBMITTING').sort()).toEqual(['APPROVED', 'OUTCOME_UNKNOWN', 'SUBMIT_FAILED']);
  });

  it('refuses an unknown state', () => {
    expect(() => assertTransition('SENT', 'SUBMITTED')).toThrow(/cannot go from SENT/);
  });
});
