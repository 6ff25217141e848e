// The request page shows every registered kind with panels of its own, the same ones for kinds that share a review.
import { describe, expect, it, vi } from 'vitest';
import { CONFIGURATION_KINDS } from '@/lib/approvals/configuration';
import { OPERATION_TYPES } from '@/lib/server/approvals/operations/registry';
import { REQUEST_PANELS } from './request-panels';

// The panels' buttons call server actions, which sign the person in: nothing here presses them.
vi.mock('@/lib/actions/swaps', () => ({}));
vi.mock('@/lib/actions/service-tokens', () => ({}));
vi.mock('@/lib/actions/users', () => ({}));

describe('request panels', () => {
  it('have an entry for every kind the approval engine registers', () => {
    expect(Object.keys(REQUEST_PANELS).sort()).toEqual(Object.keys(OPERATION_TYPES).sort());
    for (const [kind, panels] of Object.entries(REQUEST_PANELS)) expect(typeof panels, kind).toBe('function');
  });

  it('share panels only between kinds of one review', () => {
    expect(REQUEST_PANELS.withdrawSign).toBe(REQUEST_PANELS.withdraw);
    expect(REQUEST_PANELS.contractSign).toBe(REQUEST_PANELS.contractWrite);
    for (const kind of CONFIGURATION_KINDS)
      expect(REQUEST_PANELS[kind], kind).toBe(REQUEST_PANELS.userCreate);
    const money = [
      'withdraw',
      'swap',
      'typedDataSign',
      'contractWrite',
      'retry',
      'payout',
      'userCreate',
    ] as const;
    expect(new Set(money.map((kind) => REQUEST_PANELS[kind])).size).toBe(money.length);
  });
});
