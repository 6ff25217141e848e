// A payout schedule as the form sends it, one schema for the form and its actions: a name, where the money
// leaves from, when it runs (UTC), and its recipients as rows (typed, or pasted as CSV lines).
import { z } from 'zod';
import { CADENCES, nextRunAfter, type ScheduleTiming } from '@/lib/approvals/payout-schedules';
import { plainText } from './text';

/** Most payments in one schedule: each run is one payout request of at most this many rows. */
export const MAX_SCHEDULE_ROWS = 100;
/** Each run's reference is the row's own followed by the run's time (`-YYYYMMDDHHMM`): within the service's 64. */
export const MAX_SCHEDULE_REFERENCE = 50;

/** `HH:MM`, 00:00 to 23:59 (UTC). */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;
/** `YYYY-MM-DD` (whether the day exists is the cadence's check). */
export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const recipientSchema = z.object({
  address: plainText().trim().min(1, 'Enter the address.').max(200, 'The address is too long.'),
  amount: plainText().trim().min(1, 'Enter the amount.').max(80, 'The amount is too long.'),
  asset: plainText().trim().min(1, 'Enter the asset.').max(100, 'The asset is too long.'),
  reference: plainText()
    .trim()
    .max(MAX_SCHEDULE_REFERENCE, `Keep the reference to ${MAX_SCHEDULE_REFERENCE} characters.`),
  label: plainText().trim().max(280, 'Keep the label under 280 characters.'),
});
export type ScheduleRecipientValues = z.infer<typeof recipientSchema>;

export const payoutScheduleSchema = z
  .object({
    walletId: plainText().min(1, 'Choose a wallet.').max(100),
    name: plainText().trim().min(1, 'Name the schedule.').max(100, 'Keep the name under 100 characters.'),
    /** `master`, or the id of a child address. */
    source: plainText().trim().min(1, 'Choose where the funds come from.').max(100),
    cadence: z.enum(CADENCES, { message: 'Choose how often it runs.' }),
    /** Weekly: `0` (Sunday) to `6`; empty otherwise. */
    dayOfWeek: z.string().max(1),
    /** Monthly: `1` to `28`; empty otherwise. */
    dayOfMonth: z.string().max(2),
    timeOfDay: z.string().regex(TIME_OF_DAY, 'Enter a time as HH:MM (UTC).'),
    startsOn: z.string().regex(DATE_ONLY, 'Enter a date.'),
    recipients: z
      .array(recipientSchema)
      .min(1, 'Add at least one recipient.')
      .max(MAX_SCHEDULE_ROWS, `A schedule pays at most ${MAX_SCHEDULE_ROWS} recipients.`),
  })
  .superRefine((values, ctx) => {
    if (values.cadence === 'weekly' && !/^[0-6]$/.test(values.dayOfWeek))
      return ctx.addIssue({ code: 'custom', path: ['dayOfWeek'], message: 'Choose the day of the week.' });
    if (values.cadence === 'monthly' && !/^([1-9]|1\d|2[0-8])$/.test(values.dayOfMonth))
      return ctx.addIssue({ code: 'custom', path: ['dayOfMonth'], message: 'Choose a day from 1 to 28.' });
    // A time or date that does not parse has its own message.
    if (!TIME_OF_DAY.test(values.timeOfDay) || !DATE_ONLY.test(values.startsOn)) return;
    if (!nextRunAfter(scheduleTimingOf(values), new Date()))
      ctx.addIssue({
        code: 'custom',
        path: ['startsOn'],
        message:
          values.cadence === 'once' ? 'Choose a date and time still ahead.' : 'Enter a date that exists.',
      });
  });
export type PayoutScheduleValues = z.infer<typeof payoutScheduleSchema>;

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

export const scheduleIdSchema = z.object({ scheduleId: z.uuid('Choose a schedule.') });

/**
 * Pasted lines `address,amount,asset[,reference,label]` as recipient rows; a first line naming the columns is
 * skipped, and a label may hold commas (everything after the fourth). Lines with fewer than three cells are
 * named by number.
 */
export function parseRecipientLines(text: string): { rows: ScheduleRecipientValues[]; badLines: number[] } {
  const rows: ScheduleRecipientValues[] = [];
  const badLines: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const cells = line.split(',').map((c) => c.trim());
    if (i === 0 && cells[0]?.toLowerCase() === 'address') return;
    const [address = '', amount = '', asset = '', reference = '', ...label] = cells;
    if (!address || !amount || !asset) {
      badLines.push(i + 1);
      return;
    }
    rows.push({ address, amount, asset, reference, label: label.join(', ') });
  });
  return { rows, badLines };
}
