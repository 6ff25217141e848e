import { describe, expect, it } from 'vitest';
import { approveSchema, rejectSchema, resubmitSchema } from './approvals';
import { fieldErrorsOf } from './errors';

const requestId = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';

describe('approval decision schemas', () => {
  it('asks for a reason of 3 to 500 characters, ignoring surrounding spaces', () => {
    const short = rejectSchema.safeParse({ requestId, reason: '  no ' });
    expect(short.success).toBe(false);
    if (!short.success)
      expect(fieldErrorsOf(short.error)).toEqual({ reason: 'Give a reason of at least 3 characters.' });
    const long = rejectSchema.safeParse({ requestId, reason: 'x'.repeat(501) });
    expect(long.success ? null : fieldErrorsOf(long.error)).toEqual({
      reason: 'Keep the reason under 500 characters.',
    });
    expect(rejectSchema.parse({ requestId, reason: ' Wrong amount ' })).toEqual({
      requestId,
      reason: 'Wrong amount',
    });
  });

  it('takes a two-factor code of six digits only, and none when the approval does not submit', () => {
    expect(approveSchema.parse({ requestId })).toEqual({ requestId });
    expect(approveSchema.parse({ requestId, twoFactorCode: '123456' }).twoFactorCode).toBe('123456');
    for (const code of ['', '12345', '1234567', '12a456']) {
      const parsed = approveSchema.safeParse({ requestId, twoFactorCode: code });
      expect(parsed.success ? null : fieldErrorsOf(parsed.error)).toEqual({
        twoFactorCode: 'Enter the 6-digit two-factor code.',
      });
    }
  });

  it('refuses an unknown request id and keeps a resubmission’s acknowledgement', () => {
    const parsed = approveSchema.safeParse({ requestId: '../x' });
    expect(parsed.success ? null : fieldErrorsOf(parsed.error)).toEqual({ requestId: 'Unknown request.' });
    expect(resubmitSchema.parse({ requestId, acknowledged: true })).toEqual({
      requestId,
      acknowledged: true,
    });
  });
});
