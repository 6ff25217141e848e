import 'server-only';
// A payout schedule as a configuration kind: finance or an admin asks for recipients to be paid on a cadence,
// another person approves the schedule once, and the console then keeps it. The schedule itself moves no
// money: each run creates an ordinary payout request (lib/server/payout-schedules) that is approved, limited
// and held by the freeze like any other. The review shows one run as the payout review would.
import { z } from 'zod';
import {
  CADENCES,
  describeCadence,
  nextRunAfter,
  type ScheduleTiming,
  upcomingRuns,
} from '@/lib/approvals/payout-schedules';
import { payoutSchedules } from '@/lib/db/schema';
import { formatAssetAmount, formatDateTime } from '@/lib/format';
import {
  DATE_ONLY,
  MAX_SCHEDULE_REFERENCE,
  MAX_SCHEDULE_ROWS,
  TIME_OF_DAY,
} from '@/lib/validation/payout-schedules';
import { storedRowsOf } from '../../payout-schedules';
import { payoutPayloadSchema } from './payout';
import { defineLocalOperation, LocalRefusal } from './types';

const schedulePayloadSchema = z
  .strictObject({
    walletId: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9-]+$/),
    name: z.string().min(1).max(100),
    cadence: z.enum(CADENCES),
    dayOfWeek: z.int().min(0).max(6).nullable(),
    dayOfMonth: z.int().min(1).max(28).nullable(),
    timeOfDay: z.string().regex(TIME_OF_DAY),
    startsOn: z.string().regex(DATE_ONLY),
    payout: payoutPayloadSchema,
  })
  .refine((p) => p.cadence !== 'weekly' || p.dayOfWeek !== null, 'A weekly schedule names its day.')
  .refine((p) => p.cadence !== 'monthly' || p.dayOfMonth !== null, 'A monthly schedule names its day.')
  .refine((p) => p.payout.items.length <= MAX_SCHEDULE_ROWS, 'Too many recipients.')
  .refine(
    (p) => p.payout.items.every((i) => (i.reference ?? '').length <= MAX_SCHEDULE_REFERENCE),
    'A reference is too long for a schedule.',
  );

type SchedulePayload = z.infer<typeof schedulePayloadSchema>;

const timingOf = (p: SchedulePayload): ScheduleTiming => ({
  cadence: p.cadence,
  dayOfWeek: p.cadence === 'weekly' ? p.dayOfWeek : null,
  dayOfMonth: p.cadence === 'monthly' ? p.dayOfMonth : null,
  timeOfDay: p.timeOfDay,
  startsOn: p.startsOn,
});

const NO_RUN_AHEAD = 'The schedule has no run ahead (its date has passed). Nothing was created.';

export const payoutScheduleOperation = defineLocalOperation({
  key: 'payoutSchedule',
  permissions: { request: 'payoutSchedule.request', approve: 'payoutSchedule.approve' },
  defaultPolicy: { approvals: 1, thresholdUsd: null, expirySeconds: 24 * 60 * 60 },
  payloadSchema: schedulePayloadSchema,
  async buildReview(p, ctx) {
    const timing = timingOf(p);
    const runs = upcomingRuns(timing, new Date(), 3);
    if (runs.length === 0) throw new LocalRefusal(NO_RUN_AHEAD);
    // One run as the payout file review shows it: address book entries, cooling-off, look-alikes, balances.
    const built = await ctx.walletReview('payout', p.walletId, p.payout);
    if (built.review.kind !== 'payout') throw new Error('A payout review was expected.');
    const payout = built.review;
    const cadence = describeCadence(timing);
    const totals = payout.totals.byAsset;
    const totalWords = totals
      .map((t) => {
        const decimals = payout.rows.find((r) => r.symbol === t.symbol)?.decimals ?? 18;
        return formatAssetAmount(t.amount, decimals, t.symbol);
      })
      .join(' + ');
    return {
      review: {
        kind: 'payoutSchedule',
        name: p.name,
        wallet: payout.wallet,
        source: payout.source,
        cadence,
        startsOn: p.startsOn,
        nextRuns: runs.map((r) => r.toISOString()),
        // Each run's references are the row's own with the run's time, or derived from the run's request.
        rows: payout.rows.map((r) => ({ ...r, reference: p.payout.items[r.index]?.reference ?? '' })),
        totals,
        warnings: [
          'Each run creates a payout request that needs approval like any other, within the spending limits and the freeze.',
          ...payout.warnings.map((w) => `If it ran now: ${w}`),
        ],
        builtAt: new Date().toISOString(),
      },
      summary: `Payout schedule “${p.name}”: ${cadence}, ${totalWords} per run`,
      // The schedule moves nothing by itself; each run's request is valued and approved on its own.
      amountUsd: null,
    };
  },
  async execute(p, ctx) {
    const timing = timingOf(p);
    const nextRunAt = nextRunAfter(timing, ctx.now);
    if (!nextRunAt) throw new LocalRefusal(NO_RUN_AHEAD);
    const [row] = await ctx.db
      .insert(payoutSchedules)
      .values({
        walletId: p.walletId,
        name: p.name,
        source: p.payout.source.kind === 'master' ? 'master' : p.payout.source.addressId,
        ...timing,
        rows: storedRowsOf(p.payout.items),
        status: 'active',
        approvedRequestId: ctx.requestId,
        ownerId: ctx.requester.id,
        ownerEmail: ctx.requester.email,
        nextRunAt,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .returning({ id: payoutSchedules.id });
    return {
      result: {
        kind: 'payoutSchedule',
        message: `The schedule “${p.name}” is active: ${describeCadence(timing)}, first run ${formatDateTime(nextRunAt)}.`,
      },
      audit: {
        action: 'payoutSchedule.create',
        target: row?.id ?? p.walletId,
        input: {
          walletId: p.walletId,
          name: p.name,
          cadence: describeCadence(timing),
          payments: p.payout.items.length,
          nextRunAt: nextRunAt.toISOString(),
        },
      },
    };
  },
});
