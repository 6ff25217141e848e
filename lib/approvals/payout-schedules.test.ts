import { describe, expect, it } from 'vitest';
import { describeCadence, nextRunAfter, type ScheduleTiming, upcomingRuns } from './payout-schedules';

const at = (iso: string) => new Date(iso);
const iso = (date: Date | null) => date?.toISOString() ?? null;

const timing = (overrides: Partial<ScheduleTiming>): ScheduleTiming => ({
  cadence: 'daily',
  dayOfWeek: null,
  dayOfMonth: null,
  timeOfDay: '09:00',
  startsOn: '2026-01-01',
  ...overrides,
});

describe('nextRunAfter', () => {
  it('daily: today when the time has not come yet, else tomorrow', () => {
    const daily = timing({});
    expect(iso(nextRunAfter(daily, at('2026-11-26T08:59:00Z')))).toBe('2026-11-26T09:00:00.000Z');
    expect(iso(nextRunAfter(daily, at('2026-11-26T09:01:00Z')))).toBe('2026-11-27T09:00:00.000Z');
  });

  it('a run exactly at `after` is not next: the one after it is', () => {
    expect(iso(nextRunAfter(timing({}), at('2026-11-26T09:00:00Z')))).toBe('2026-11-27T09:00:00.000Z');
    const weekly = timing({ cadence: 'weekly', dayOfWeek: 1 });
    expect(iso(nextRunAfter(weekly, at('2026-11-30T09:00:00Z')))).toBe('2026-12-07T09:00:00.000Z');
  });

  it('weekly: the next given weekday, across a month and a year end', () => {
    const monday = timing({ cadence: 'weekly', dayOfWeek: 1 });
    // Thursday 26 November 2026.
    expect(iso(nextRunAfter(monday, at('2026-11-26T12:00:00Z')))).toBe('2026-11-30T09:00:00.000Z');
    const thursday = timing({ cadence: 'weekly', dayOfWeek: 4, timeOfDay: '23:30' });
    expect(iso(nextRunAfter(thursday, at('2026-12-31T23:30:00Z')))).toBe('2027-01-07T23:30:00.000Z');
    expect(iso(nextRunAfter(thursday, at('2026-12-31T23:29:59Z')))).toBe('2026-12-31T23:30:00.000Z');
  });

  it('monthly: the day of the next month once this month’s has passed, through February and year ends', () => {
    const on28 = timing({ cadence: 'monthly', dayOfMonth: 28, timeOfDay: '00:00' });
    expect(iso(nextRunAfter(on28, at('2027-01-28T00:00:00Z')))).toBe('2027-02-28T00:00:00.000Z');
    expect(iso(nextRunAfter(on28, at('2027-02-28T00:00:01Z')))).toBe('2027-03-28T00:00:00.000Z');
    const on1 = timing({ cadence: 'monthly', dayOfMonth: 1 });
    expect(iso(nextRunAfter(on1, at('2026-12-31T23:59:00Z')))).toBe('2027-01-01T09:00:00.000Z');
    expect(iso(nextRunAfter(on1, at('2026-01-31T10:00:00Z')))).toBe('2026-02-01T09:00:00.000Z');
  });

  it('never runs before the first day', () => {
    const later = timing({ startsOn: '2027-03-10' });
    expect(iso(nextRunAfter(later, at('2026-11-26T12:00:00Z')))).toBe('2027-03-10T09:00:00.000Z');
    const monthly = timing({ cadence: 'monthly', dayOfMonth: 5, startsOn: '2027-03-10' });
    expect(iso(nextRunAfter(monthly, at('2026-11-26T12:00:00Z')))).toBe('2027-04-05T09:00:00.000Z');
    const weekly = timing({ cadence: 'weekly', dayOfWeek: 3, startsOn: '2027-03-10' });
    // 10 March 2027 is a Wednesday: the first day itself.
    expect(iso(nextRunAfter(weekly, at('2026-11-26T12:00:00Z')))).toBe('2027-03-10T09:00:00.000Z');
  });

  it('once: its date and time while still ahead, then never', () => {
    const once = timing({ cadence: 'once', startsOn: '2026-12-24', timeOfDay: '12:00' });
    expect(iso(nextRunAfter(once, at('2026-11-26T12:00:00Z')))).toBe('2026-12-24T12:00:00.000Z');
    expect(nextRunAfter(once, at('2026-12-24T12:00:00Z'))).toBeNull();
    expect(nextRunAfter(once, at('2027-01-01T00:00:00Z'))).toBeNull();
  });

  it('a timing it cannot read has no run', () => {
    expect(nextRunAfter(timing({ timeOfDay: '25:00' }), at('2026-11-26T00:00:00Z'))).toBeNull();
    expect(nextRunAfter(timing({ startsOn: '2026-02-30' }), at('2026-11-26T00:00:00Z'))).toBeNull();
    expect(nextRunAfter(timing({ cadence: 'hourly' }), at('2026-11-26T00:00:00Z'))).toBeNull();
    expect(nextRunAfter(timing({ cadence: 'weekly' }), at('2026-11-26T00:00:00Z'))).toBeNull();
  });
});

describe('upcomingRuns', () => {
  it('lists the next runs, fewer when the schedule ends', () => {
    const monday = timing({ cadence: 'weekly', dayOfWeek: 1 });
    expect(upcomingRuns(monday, at('2026-11-26T00:00:00Z'), 3).map(iso)).toEqual([
      '2026-11-30T09:00:00.000Z',
      '2026-12-07T09:00:00.000Z',
      '2026-12-14T09:00:00.000Z',
    ]);
    const once = timing({ cadence: 'once', startsOn: '2026-12-24' });
    expect(upcomingRuns(once, at('2026-11-26T00:00:00Z'), 3)).toHaveLength(1);
  });
});

describe('describeCadence', () => {
  it('says each cadence in words', () => {
    expect(describeCadence(timing({}))).toBe('Every day at 09:00 UTC');
    expect(describeCadence(timing({ cadence: 'weekly', dayOfWeek: 1 }))).toBe('Every Monday at 09:00 UTC');
    expect(describeCadence(timing({ cadence: 'monthly', dayOfMonth: 22, timeOfDay: '08:30' }))).toBe(
      'On the 22nd of every month at 08:30 UTC',
    );
    expect(describeCadence(timing({ cadence: 'monthly', dayOfMonth: 11 }))).toBe(
      'On the 11th of every month at 09:00 UTC',
    );
    expect(describeCadence(timing({ cadence: 'once', startsOn: '2026-12-24' }))).toBe(
      'Once on 2026-12-24 at 09:00 UTC',
    );
  });
});
