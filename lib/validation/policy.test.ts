import { describe, expect, it } from 'vitest';
import { fieldErrorsOf } from './errors';
import { policySchema } from './policy';

const valid = { operationType: 'withdraw', approvals: '2', thresholdUsd: '10000', expiryMinutes: '1440' };

describe('approval policy form', () => {
  it('turns the typed fields into numbers', () => {
    expect(policySchema.parse(valid)).toEqual({
      operationType: 'withdraw',
      approvals: 2,
      thresholdUsd: '10000',
      expiryMinutes: 1440,
    });
    expect(policySchema.parse({ ...valid, thresholdUsd: ' ', expiryMinutes: '0.1' })).toMatchObject({
      thresholdUsd: '',
      expiryMinutes: 0.1,
    });
  });

  it('names each wrong field with the sentence the form shows', () => {
    const parsed = policySchema.safeParse({
      operationType: 'mint',
      approvals: '0',
      thresholdUsd: '12.345',
      expiryMinutes: 'soon',
    });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(fieldErrorsOf(parsed.error)).toEqual({
      operationType: 'Unknown operation type.',
      approvals: 'At least one approver is needed.',
      thresholdUsd: 'Enter a USD amount such as 10000, or leave it empty for no threshold.',
      expiryMinutes: 'Enter a number of minutes.',
    });
  });

  it('bounds approvers and expiry', () => {
    const errorsOf = (input: Record<string, string>) => {
      const parsed = policySchema.safeParse({ ...valid, ...input });
      return parsed.success ? {} : fieldErrorsOf(parsed.error);
    };
    expect(errorsOf({ approvals: '11' })).toEqual({ approvals: 'At most 10 approvers.' });
    expect(errorsOf({ approvals: '1.5' })).toEqual({ approvals: 'Enter a whole number.' });
    expect(errorsOf({ approvals: 'two' })).toEqual({ approvals: 'Enter a whole number.' });
    expect(errorsOf({ expiryMinutes: '0.05' })).toEqual({ expiryMinutes: 'Between 5 seconds and 30 days.' });
    expect(errorsOf({ expiryMinutes: String(30 * 24 * 60 + 1) })).toEqual({
      expiryMinutes: 'Between 5 seconds and 30 days.',
    });
    expect(errorsOf({ expiryMinutes: String(30 * 24 * 60) })).toEqual({});
  });
});
