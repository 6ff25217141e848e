// A payout schedule as the form sends it, one schema for the form and its actions: a name, where the money
// leaves from, when it runs (UTC), and its recipients as rows (typed, or pasted as CSV lines, read by
// `payout-schedule-csv.ts`). The schema is `payout-schedule-schema.ts`.
import type { CADENCES, ScheduleTiming } from '@/lib/approvals/payout-schedules';

/** Most payments in one schedule: each run is one payout request of at most this many rows. */
export const MAX_SCHEDULE_ROWS = 100;
/** Each run's reference is the row's own followed by the run's time (`-YYYYMMDDHHMM`): within the service's 64. */
export const MAX_SCHEDULE_REFERENCE = 50;

/** `HH:MM`, 00:00 to 23:59 (UTC). */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;
/** `YYYY-MM-DD` (whether the day exists is the cadence's check). */
export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** One recipient row as the form holds it (shape: `payout-schedule-schema.ts`). */
export interface ScheduleRecipientValues {
  address: string;
  amount: string;
  asset: string;
  reference: string;
  label: string;
}

export interface PayoutScheduleValues {
  walletId: string;
  name: string;
  /** `master`, or the id of a child address. */
  source: string;
  cadence: (typeof CADENCES)[number];
  /** Weekly: `0` (Sunday) to `6`; empty otherwise. */
  dayOfWeek: string;
  /** Monthly: `1` to `28`; empty otherwise. */
  dayOfMonth: string;
  timeOfDay: string;
  startsOn: string;
  recipients: ScheduleRecipientValues[];
}

/** The timing of the form's values (the days that do not apply to the cadence dropped). */
export function scheduleTimingOf(
  values: Pick<PayoutScheduleValues, 'cadence' | 'dayOfWeek' | 'dayOfMonth' | 'timeOfDay' | 'startsOn'>,
): ScheduleTiming {
  return {
    cadence: values.cadence,
    dayOfWeek: values.cadence === 'weekly' ? Number(values.dayOfWeek) : null,
    dayOfMonth: values.cadence === 'monthly' ? Number(values.dayOfMonth) : null,
    timeOfDay: values.timeOfDay,
    startsOn: values.startsOn,
  };
}
