import { describe, expect, it } from 'vitest';
import { lastCalendarMonth, statementPeriodOf } from './statements';

describe('statement periods', () => {
  it('defaults to the last calendar month in UTC, across a year end and a leap February', () => {
    expect(lastCalendarMonth(new Date('2026-11-25T14:00:00Z'))).toEqual({
      from: '2026-10-01',
      to: '2026-10-31',
    });
    expect(lastCalendarMonth(new Date('2027-01-01T00:00:00Z'))).toEqual({
      from: '2026-12-01',
      to: '2026-12-31',
    });
    expect(lastCalendarMonth(new Date('2028-03-01T23:59:59Z'))).toEqual({
      from: '2028-02-01',
      to: '2028-02-29',
    });
    expect(statementPeriodOf({ from: '', to: '' }, new Date('2026-11-25T14:00:00Z'))).toEqual({
      ok: true,
      from: '2026-10-01',
      to: '2026-10-31',
    });
  });

  it('takes one day when only one end is given and refuses bad or reversed periods with a sentence', () => {
    const now = new Date('2026-11-25T14:00:00Z');
    expect(statementPeriodOf({ from: '2026-11-03', to: '' }, now)).toEqual({
      ok: true,
      from: '2026-11-03',
      to: '2026-11-03',
    });
    expect(statementPeriodOf({ from: '2026-02-30', to: '2026-03-01' }, now)).toMatchObject({ ok: false });
    expect(statementPeriodOf({ from: '2026-11-03', to: '2026-11-01' }, now)).toEqual({
      ok: false,
      error: 'The period ends before it starts.',
    });
    expect(statementPeriodOf({ from: '2024-01-01', to: '2026-01-01' }, now)).toMatchObject({ ok: false });
  });
});
