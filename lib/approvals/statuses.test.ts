import { describe, expect, it } from 'vitest';
import { MOVING_STATUSES as DTO_MOVING, STATUS_LABELS as DTO_STATUS_LABELS } from './requests';
import {
  FINAL_STATUSES,
  FOLLOWED_STATUSES,
  FREEZE_AFFECTED_STATUSES,
  IN_PROGRESS_STATUSES,
  isRequestStatus,
  MOVING_STATUSES,
  OPEN_STATUSES,
  OUTCOME_STATUSES,
  REQUEST_STATUSES,
  STATUS_LABELS,
  statusLabel,
  TRANSITIONS,
} from './statuses';

describe('request statuses for people', () => {
  it('labels every status once, with the words pages show', () => {
    expect(Object.keys(STATUS_LABELS).sort()).toEqual([...REQUEST_STATUSES].sort());
    expect(new Set(Object.values(STATUS_LABELS)).size).toBe(REQUEST_STATUSES.length);
    expect(statusLabel('OUTCOME_UNKNOWN')).toBe('Outcome unknown');
    expect(statusLabel('DUPLICATE')).toBe('Duplicate payment');
    expect(statusLabel('SOMETHING_NEW')).toBe('SOMETHING_NEW');
    expect(DTO_STATUS_LABELS).toBe(STATUS_LABELS);
    expect(DTO_MOVING).toBe(MOVING_STATUSES);
  });

  it('groups only known statuses, and final ones never move on except to DUPLICATE', () => {
    for (const group of [
      FINAL_STATUSES,
      OPEN_STATUSES,
      IN_PROGRESS_STATUSES,
      MOVING_STATUSES,
      OUTCOME_STATUSES,
      FREEZE_AFFECTED_STATUSES,
      FOLLOWED_STATUSES,
    ])
      for (const status of group) expect(isRequestStatus(status)).toBe(true);
    expect([...FINAL_STATUSES].sort()).toEqual([
      'CANCELLED',
      'DUPLICATE',
      'EXPIRED',
      'FAILED',
      'REJECTED',
      'SUCCESS',
    ]);
    for (const status of MOVING_STATUSES) expect(FINAL_STATUSES).not.toContain(status);
    for (const status of FOLLOWED_STATUSES) expect(TRANSITIONS[status].length).toBeGreaterThan(0);
  });
});
