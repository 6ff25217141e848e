// Scheduled payouts as the browser and the server both read them: when a schedule runs (daily, weekly,
// monthly or once, at a time of day in UTC, never before its first day), the cadence in words, and the review
// approvers see before a schedule exists. Browser-safe: pure functions of a schedule and a time.
import type { PayoutAssetTotal, PayoutReviewRow } from './payouts';
import type { ReviewSource, ReviewWallet } from './types';

export const CADENCES = ['daily', 'weekly', 'monthly', 'once'] as const;
export type Cadence = (typeof CADENCES)[number];

/** When a schedule runs; the fields of a `payout_schedules` row that decide it. */
export interface ScheduleTiming {
  cadence: string;
  /** Weekly: 0 (Sunday) to 6. */
  dayOfWeek: number | null;
  /** Monthly: 1 to 28, so every month has the day. */
  dayOfMonth: number | null;
  /** `HH:MM`, UTC. */
  timeOfDay: string;
  /** `YYYY-MM-DD`: the date of a one-off run, else the first day a run may fall on. */
  startsOn: string;
}

export const WEEKDAYS = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

function clock(timeOfDay: string): { hours: number; minutes: number } | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(timeOfDay);
  return match ? { hours: Number(match[1]), minutes: Number(match[2]) } : null;
}

function dayStart(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // 2026-02-30 rolls over into March: not a date.
  return new Date(at).toISOString().slice(0, 10) === date ? at : null;
}

function fallsOn(timing: ScheduleTiming, day: Date): boolean {
  switch (timing.cadence) {
    case 'daily':
      return true;
    case 'weekly':
      return day.getUTCDay() === timing.dayOfWeek;
    case 'monthly':
      return day.getUTCDate() === timing.dayOfMonth;
    default:
      return false;
  }
}

/**
 * The schedule's first run strictly after `after`, or null when there is none (a one-off date that has
 * passed, a timing that cannot be read). A run is never before the first day.
 */
export function nextRunAfter(timing: ScheduleTiming, after: Date): Date | null {
  const time = clock(timing.timeOfDay);
  const first = dayStart(timing.startsOn);
  if (!time || first === null) return null;
  const offset = (time.hours * 60 + time.minutes) * 60 * 1000;
  if (timing.cadence === 'once') {
    const at = first + offset;
    return at > after.getTime() ? new Date(at) : null;
  }
  const afterDay = Math.floor(after.getTime() / DAY_MS) * DAY_MS;
  const from = Math.max(first, afterDay);
  // A monthly day comes round within 31 days of any day, a weekday within 7: two months covers both.
  for (let day = from; day <= from + 62 * DAY_MS; day += DAY_MS) {
    const at = day + offset;
    if (at > after.getTime() && fallsOn(timing, new Date(day))) return new Date(at);
  }
  return null;
}

/** The next `count` runs after `after` (fewer when the schedule ends). */
export function upcomingRuns(timing: ScheduleTiming, after: Date, count: number): Date[] {
  const runs: Date[] = [];
  let at: Date | null = after;
  while (runs.length < count && at) {
    at = nextRunAfter(timing, at);
    if (at) runs.push(at);
  }
  return runs;
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'}`;
}

/** "Every Monday at 09:00 UTC", "On the 1st of every month at 08:30 UTC", "Once on 2026-12-24 at 12:00 UTC". */
export function describeCadence(timing: ScheduleTiming): string {
  const at = `at ${timing.timeOfDay} UTC`;
  switch (timing.cadence) {
    case 'daily':
      return `Every day ${at}`;
    case 'weekly':
      return `Every ${WEEKDAYS[timing.dayOfWeek ?? -1] ?? '?'} ${at}`;
    case 'monthly':
      return `On the ${ordinal(timing.dayOfMonth ?? 0)} of every month ${at}`;
    case 'once':
      return `Once on ${timing.startsOn} ${at}`;
    default:
      return timing.cadence;
  }
}

export type PayoutScheduleStatus = 'active' | 'paused' | 'ended';

export const SCHEDULE_STATUS_LABELS: Record<PayoutScheduleStatus, string> = {
  active: 'Active',
  paused: 'Paused',
  ended: 'Ended',
};

/** A schedule as approvers see it before it exists: its timing, and one run's payments as a payout's review. */
export type PayoutScheduleReview = {
  kind: 'payoutSchedule';
  name: string;
  wallet: ReviewWallet;
  source: ReviewSource;
  cadence: string;
  startsOn: string;
  /** The first three runs after the review was built (ISO). */
  nextRuns: string[];
  /** Each run's payments, checked as a payout file's are (address book, cooling-off, look-alikes). */
  rows: PayoutReviewRow[];
  /** What each run pays, per asset. */
  totals: PayoutAssetTotal[];
  warnings: string[];
  builtAt: string;
};

/** A schedule asked for and not yet decided: on its wallet's schedules page until another person approves it. */
export interface ScheduleAwaitingApproval {
  requestId: string;
  /** The request's summary: the schedule's name, cadence and what each run pays. */
  summary: string;
  requesterEmail: string;
  createdAt: string;
  expiresAt: string;
}

/** A schedule as its wallet's page lists it, with its recent runs. */
export interface PayoutScheduleView {
  id: string;
  name: string;
  /** The cadence in words. */
  cadence: string;
  status: PayoutScheduleStatus;
  /** `master` or a child address id. */
  source: string;
  ownerEmail: string;
  approvedRequestId: string | null;
  payments: number;
  /** What each run pays, per asset. */
  totals: PayoutAssetTotal[];
  nextRunAt: string | null;
  lastRunAt: string | null;
  /** The most recent runs first: each one's request (and its status), or why none was created. */
  runs: Array<{
    id: string;
    dueAt: string;
    requestId: string | null;
    requestStatus: string | null;
    error: string | null;
  }>;
}
