// A payout schedule's shape in zod, for the form and its actions (the values' types and the checks without zod
// are in `payout-schedules.ts`). A module of its own so that the form's page loads zod at its first validation.
import { z } from 'zod';
import { CADENCES, nextRunAfter } from '@/lib/approvals/payout-schedules';
import {
  DATE_ONLY,
  MAX_SCHEDULE_REFERENCE,
  MAX_SCHEDULE_ROWS,
  type PayoutScheduleValues,
  type ScheduleRecipientValues,
  scheduleTimingOf,
  TIME_OF_DAY,
} from './payout-schedules';
import { plainText } from './text';

const recipientSchema = z.object({
  address: plainText().trim().min(1, 'Enter the address.').max(200, 'The address is too long.'),
  amount: plainText().trim().min(1, 'Enter the amount.').max(80, 'The amount is too long.'),
  asset: plainText().trim().min(1, 'Enter the asset.').max(100, 'The asset is too long.'),
  reference: plainText()
    .trim()
    .max(MAX_SCHEDULE_REFERENCE, `Keep the reference to ${MAX_SCHEDULE_REFERENCE} characters.`),
  label: plainText().trim().max(280, 'Keep the label under 280 characters.'),
}) satisfies z.ZodType<ScheduleRecipientValues, ScheduleRecipientValues>;

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
  }) satisfies z.ZodType<PayoutScheduleValues, PayoutScheduleValues>;

export const scheduleIdSchema = z.object({ scheduleId: z.uuid('Choose a schedule.') });
