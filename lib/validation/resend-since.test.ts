import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resendSinceFormSchema } from './custody-ids';
import { sinceProblem } from './resend-since';

describe('the resend-since time', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-01T12:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('takes a moment in the past and refuses an empty, unreadable or future one', () => {
    expect(sinceProblem('2026-03-01T11:00')).toBeNull();
    expect(sinceProblem('')).toBe('Choose a date and time');
    expect(sinceProblem('yesterday')).toBe('Choose a date and time');
    expect(sinceProblem('2026-03-09T09:00')).toBe('Choose a time in the past');
  });

  it('the form schema gives the same message at the field', () => {
    expect(resendSinceFormSchema.safeParse({ since: '2026-03-01T11:00' }).success).toBe(true);
    const future = resendSinceFormSchema.safeParse({ since: '2026-03-09T09:00' });
    expect(future.success).toBe(false);
    expect(future.error?.issues).toMatchObject([{ path: ['since'], message: 'Choose a time in the past' }]);
  });
});
