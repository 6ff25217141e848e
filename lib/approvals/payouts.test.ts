import { describe, expect, it } from 'vitest';
import { payoutBatchShown } from './payouts';

describe('payoutBatchShown', () => {
  const batch = { from: 20, to: 23, state: 'submitted' as const };
  const items = (...statuses: Array<string | null>) =>
    statuses.map((status, i) => ({ index: 20 + i, status }));

  it('says settled once every payment of the batch has settled, and only its own payments count', () => {
    expect(
      payoutBatchShown(batch, [{ index: 0, status: 'FAILED' }, ...items('SUCCESS', 'SUCCESS', 'SUCCESS')]),
    ).toBe('settled');
  });

  it('stays submitted while a payment is pending or not yet known', () => {
    expect(payoutBatchShown(batch, items('SUCCESS', 'PENDING', 'SUCCESS'))).toBe('submitted');
    expect(payoutBatchShown(batch, items('SUCCESS', 'SUCCESS'))).toBe('submitted');
    expect(payoutBatchShown(batch, items('SUCCESS', null, 'SUCCESS'))).toBe('submitted');
  });

  it('says failed on chain when any payment of the batch failed there', () => {
    expect(payoutBatchShown(batch, items('SUCCESS', 'FAILED', 'PENDING'))).toBe('failed_on_chain');
  });

  it('shows the other states as stored', () => {
    for (const state of ['not_sent', 'failed', 'unknown'] as const)
      expect(payoutBatchShown({ ...batch, state }, items('SUCCESS', 'SUCCESS', 'SUCCESS'))).toBe(state);
  });
});
