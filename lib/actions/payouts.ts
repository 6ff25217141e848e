'use server';
import { ActionRefusal, defineAction, ok, WALLET_NOT_CONNECTED } from '@/lib/actions/define-action';
import { isReviewOf } from '@/lib/approvals/kinds';
import type { PayoutReview } from '@/lib/approvals/payouts';
import { getApprovalEngine } from '@/lib/server/approvals';
import { readPayoutFile } from '@/lib/server/payouts/file';
import { checkPayoutRecipients } from '@/lib/server/payouts/recipients';
import type { CheckedPayoutRow } from '@/lib/server/payouts/rows';
import { payoutFileSchema } from '@/lib/validation/payout-schema';
import type { PayoutFileValues, PayoutPayload } from '@/lib/validation/payouts';

type FileCheck =
  | { ok: true; payload: PayoutPayload }
  | { ok: false; rows: CheckedPayoutRow[]; problemRows: number; total: number };

/** The file read and checked row by row on the server against the wallet the custody service describes. */
async function checkedFile(values: PayoutFileValues): Promise<FileCheck> {
  // The file first: one that cannot be read costs the custody service nothing.
  const read = await readPayoutFile(values.fileName, new Uint8Array(Buffer.from(values.content, 'base64')));
  if (!read.ok) throw new ActionRefusal(read.error, { file: read.error });
  const checked = await checkPayoutRecipients(values.walletId, values.source, read.rows, { balances: true });
  if (checked.kind === 'not-connected') throw new ActionRefusal(WALLET_NOT_CONNECTED, undefined, 404);
  if (checked.kind === 'bad-source')
    throw new ActionRefusal('Choose a source of this wallet.', { source: checked.error });
  if (checked.kind === 'problems')
    return { ok: false, rows: checked.rows, problemRows: checked.problemRows, total: checked.total };
  return { ok: true, payload: { ...checked.payload, fileName: values.fileName } };
}

const payoutFile = {
  permission: 'withdraw.request' as const,
  input: payoutFileSchema,
  invalid: 'first-issue' as const,
  target: (values: PayoutFileValues) => values.walletId,
};

export type PayoutCheck =
  | { problems: null; review: PayoutReview; requiredApprovals: number }
  | { problems: { rows: CheckedPayoutRow[]; problemRows: number; total: number }; review: null };

/**
 * Reads and checks a payout file: the rows with problems, each beside its own, or the review approvers will
 * see (fees from the service, batches, totals). Nothing is created and nothing is sent.
 */
export const checkPayoutFileAction = defineAction({
  ...payoutFile,
  context: 'payout file check',
  run: async ({ actor, input }) => {
    const checked = await checkedFile(input);
    if (!checked.ok)
      return ok<PayoutCheck>({
        problems: { rows: checked.rows, problemRows: checked.problemRows, total: checked.total },
        review: null,
      });
    const engine = await getApprovalEngine();
    const preview = await engine.preview(actor, 'payout', input.walletId, checked.payload);
    if (!preview.ok) return preview;
    const { review } = preview.data;
    if (!isReviewOf(review, 'payout')) throw new Error('The payout preview has a review of another kind.');
    // References are assigned when the request is created; a preview's would never be used.
    return ok<PayoutCheck>({
      problems: null,
      review: {
        ...review,
        rows: review.rows.map((r) => ({ ...r, reference: checked.payload.items[r.index]?.reference ?? '' })),
      },
      requiredApprovals: preview.data.requiredApprovals,
    });
  },
});

/** Creates the one approval request of a payout file once every row checks out; nothing is sent upstream here. */
export const createPayoutRequestAction = defineAction({
  ...payoutFile,
  context: 'payout request',
  run: async ({ actor, input }) => {
    const checked = await checkedFile(input);
    if (!checked.ok)
      throw new ActionRefusal(
        `${checked.problemRows} of ${checked.total} rows have problems. Fix the file and upload it again.`,
      );
    const engine = await getApprovalEngine();
    const created = await engine.create(actor, 'payout', input.walletId, checked.payload);
    if (!created.ok) return created;
    return ok({ id: created.data.id });
  },
});
