'use server';
import { revalidatePath } from 'next/cache';
import { type RequestedChange, requestConfigurationChange } from '@/lib/actions/configuration-request';
import {
  ActionRefusal,
  type ActionResult,
  defineAction,
  ok,
  WALLET_NOT_CONNECTED,
} from '@/lib/actions/define-action';
import { CONSOLE_SCOPE } from '@/lib/approvals/configuration';
import { isReviewOf } from '@/lib/approvals/kinds';
import type { PayoutScheduleReview } from '@/lib/approvals/payout-schedules';
import { getApprovalEngine } from '@/lib/server/approvals';
import { changeScheduleStatus, type ScheduleChange } from '@/lib/server/payout-schedules';
import { checkPayoutRecipients } from '@/lib/server/payouts/recipients';
import type { CheckedPayoutRow } from '@/lib/server/payouts/rows';
import { currentDb } from '@/lib/server/services';
import { payoutScheduleSchema, scheduleIdSchema } from '@/lib/validation/payout-schedule-schema';
import { type PayoutScheduleValues, scheduleTimingOf } from '@/lib/validation/payout-schedules';

// The approval engine audits the schedule requests these file; another person approves each schedule.

type ScheduleProblems = { rows: CheckedPayoutRow[]; problemRows: number; total: number };

/** The schedule's request payload, its recipients checked on the server as a payout file's rows are. */
async function schedulePayload(
  values: PayoutScheduleValues,
): Promise<{ payload: Record<string, unknown> } | { problems: ScheduleProblems }> {
  const rows = values.recipients.map((r, i) => ({ line: i + 1, ...r }));
  // No balance check: a schedule pays later, and each run's request is checked when it is created.
  const checked = await checkPayoutRecipients(values.walletId, values.source, rows, { balances: false });
  if (checked.kind === 'not-connected') throw new ActionRefusal(WALLET_NOT_CONNECTED, undefined, 404);
  if (checked.kind === 'bad-source')
    throw new ActionRefusal('Choose a source of this wallet.', { source: checked.error });
  if (checked.kind === 'problems')
    return { problems: { rows: checked.rows, problemRows: checked.problemRows, total: checked.total } };
  return {
    payload: {
      walletId: values.walletId,
      name: values.name,
      ...scheduleTimingOf(values),
      payout: { ...checked.payload, fileName: values.name },
    },
  };
}

const scheduleRequest = {
  permission: 'payoutSchedule.request' as const,
  input: payoutScheduleSchema,
  target: (values: PayoutScheduleValues) => values.walletId,
};

export type ScheduleCheck =
  | { problems: null; review: PayoutScheduleReview; requiredApprovals: number }
  | { problems: ScheduleProblems; review: null };

/** The review approvers will see (next runs, one run's payments and checks), or the rows with problems. */
export const previewPayoutScheduleAction = defineAction({
  ...scheduleRequest,
  context: 'payout schedule preview',
  run: async ({ actor, input }): Promise<ActionResult<ScheduleCheck>> => {
    const built = await schedulePayload(input);
    if ('problems' in built) return ok<ScheduleCheck>({ problems: built.problems, review: null });
    const preview = await (await getApprovalEngine()).preview(
      actor,
      'payoutSchedule',
      CONSOLE_SCOPE,
      built.payload,
    );
    if (!preview.ok) return preview;
    const { review, requiredApprovals } = preview.data;
    if (!isReviewOf(review, 'payoutSchedule')) throw new Error('The preview has a review of another kind.');
    return ok<ScheduleCheck>({ problems: null, review, requiredApprovals });
  },
});

/** Files the schedule as one request another person approves; nothing runs before that. */
export const requestPayoutScheduleAction = defineAction({
  ...scheduleRequest,
  context: 'payout schedule request',
  run: async ({ actor, input }): Promise<ActionResult<RequestedChange>> => {
    const built = await schedulePayload(input);
    if ('problems' in built)
      throw new ActionRefusal(
        `${built.problems.problemRows} of ${built.problems.total} recipients have problems. Nothing was requested.`,
      );
    const requested = await requestConfigurationChange(actor, 'payoutSchedule', built.payload);
    revalidatePath(`/wallets/${encodeURIComponent(input.walletId)}/payouts/schedules`);
    return requested;
  },
});

const WORDS: Record<ScheduleChange, string> = { pause: 'paused', resume: 'resumed', end: 'ended' };

interface ScheduleChanged {
  walletId: string;
  name: string;
  status: string;
  nextRunAt: string | null;
  message: string;
}

/** Pausing and ending only lower the risk, and every run of a resumed schedule is still approved: no request. */
function scheduleChange(change: ScheduleChange) {
  return defineAction<typeof scheduleIdSchema, ScheduleChanged>({
    permission: 'payoutSchedule.request',
    resource: 'payout-schedule',
    input: scheduleIdSchema,
    target: (input) => input.scheduleId,
    context: `payout schedule ${change}`,
    audit: {
      action: `payoutSchedule.${change}`,
      target: (input) => input.scheduleId,
      input: (_input, data) =>
        data ? { walletId: data.walletId, name: data.name, status: data.status } : {},
    },
    run: async ({ input }) => {
      const changed = await changeScheduleStatus(await currentDb(), input.scheduleId, change);
      if (!changed.ok) throw new ActionRefusal(changed.error, undefined, 409);
      const { walletId, name, status, nextRunAt } = changed.row;
      revalidatePath(`/wallets/${encodeURIComponent(walletId)}/payouts/schedules`);
      return ok({
        walletId,
        name,
        status,
        nextRunAt: nextRunAt?.toISOString() ?? null,
        message: `“${name}” is ${WORDS[change]}.`,
      });
    },
  });
}

export const pausePayoutScheduleAction = scheduleChange('pause');
export const resumePayoutScheduleAction = scheduleChange('resume');
export const endPayoutScheduleAction = scheduleChange('end');
