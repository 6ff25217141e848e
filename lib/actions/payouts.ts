'use server';
import { ActionRefusal, defineAction, ok, WALLET_NOT_CONNECTED } from '@/lib/actions/define-action';
import { coolingOffRefusal, usableFrom } from '@/lib/approvals/address-book';
import { isReviewOf } from '@/lib/approvals/kinds';
import type { PayoutReview } from '@/lib/approvals/payouts';
import { consoleEntriesByAddress, coolingOffSeconds } from '@/lib/server/address-book';
import { verifyTypedSource } from '@/lib/server/address-lookup';
import { getApprovalEngine, sourceBalances, withdrawFormContext } from '@/lib/server/approvals';
import { type PayoutFileRow, readPayoutFile } from '@/lib/server/payouts/file';
import { type CheckedPayoutRow, checkPayoutRows } from '@/lib/server/payouts/rows';
import { currentDb } from '@/lib/server/services';
import { type PayoutFileValues, type PayoutPayload, payoutFileSchema } from '@/lib/validation/payouts';
import type { SourceBalanceMap } from '@/lib/validation/withdrawals';

type FileCheck =
  | { ok: true; payload: PayoutPayload }
  | { ok: false; rows: CheckedPayoutRow[]; problemRows: number; total: number };

/** The source's balances per asset id; null (unknown, never blocking) when the service gives none. */
async function balancesOf(
  walletId: string,
  source: string,
  context: NonNullable<Awaited<ReturnType<typeof withdrawFormContext>>>,
): Promise<SourceBalanceMap | null> {
  if (source === 'master')
    return context.balances === 'available'
      ? Object.fromEntries(context.assets.map((a) => [a.id, a.balance]))
      : null;
  if (context.balances === 'unsupported') return null;
  try {
    const balances = await sourceBalances(walletId, source);
    return balances ? Object.fromEntries(balances.map((b) => [b.assetId, b.balance])) : null;
  } catch {
    return null;
  }
}

/** Address book entries of the file's recipients still in their cooling-off, with the sentence for each. */
async function coolingOff(walletId: string, rows: PayoutFileRow[]): Promise<Map<string, string>> {
  const db = await currentDb();
  const entries = await consoleEntriesByAddress(
    db,
    walletId,
    rows.map((r) => r.address.trim()).filter((a) => /^0x[0-9a-fA-F]{40}$/.test(a)),
  );
  const waiting = new Map<string, string>();
  if (entries.size === 0) return waiting;
  const seconds = await coolingOffSeconds(db);
  const now = new Date();
  for (const [key, entry] of entries) {
    const until = usableFrom(entry.addressSince, seconds);
    if (until > now)
      waiting.set(
        key,
        coolingOffRefusal(entry.name, entry.address, until, now).replace(' Nothing was requested.', ''),
      );
  }
  return waiting;
}

/** The file read and checked row by row on the server against the wallet the custody service describes. */
async function checkedFile(values: PayoutFileValues): Promise<FileCheck> {
  // The file first: one that cannot be read costs the custody service nothing.
  const read = await readPayoutFile(values.fileName, new Uint8Array(Buffer.from(values.content, 'base64')));
  if (!read.ok) throw new ActionRefusal(read.error, { file: read.error });
  const context = await withdrawFormContext(values.walletId);
  if (!context) throw new ActionRefusal(WALLET_NOT_CONNECTED, undefined, 404);
  const source = values.source.trim();
  if (source !== 'master' && !context.sources.some((s) => s.id === source)) {
    const typed = await verifyTypedSource(values.walletId, source);
    if (!typed.ok) throw new ActionRefusal('Choose a source of this wallet.', { source: typed.error });
  }
  const checked = checkPayoutRows(read.rows, {
    assets: context.assets,
    chain: { isEvmCompatible: context.wallet.isEvmCompatible },
    balances: await balancesOf(values.walletId, source, context),
    notPayable: await coolingOff(values.walletId, read.rows),
  });
  if (!checked.ok)
    return {
      ok: false,
      rows: checked.rows.filter((r) => r.problems.length > 0),
      problemRows: checked.problemRows,
      total: checked.rows.length,
    };
  return {
    ok: true,
    payload: {
      source: source === 'master' ? { kind: 'master' } : { kind: 'address', addressId: source },
      fileName: values.fileName,
      items: checked.items,
    },
  };
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
