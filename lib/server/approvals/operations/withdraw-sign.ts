import 'server-only';
// Sign-only withdrawals (#14) as an operation kind of the approval engine: the service signs, the console
// shows the signed transactions decoded, nothing is broadcast.
import { DEFAULT_EXPIRY_SECONDS, DEFAULT_THRESHOLD_USD } from '@/lib/approvals/policy';
import type { WithdrawalPayload } from '@/lib/validation/withdrawals';
import { decodeSignedTransaction } from '../decode';
import { defineOperation } from './types';
import { buildWithdrawalReview, upstreamItems, withdrawalPayloadSchema } from './withdraw';

export const withdrawSignOperation = defineOperation<'withdrawSign', WithdrawalPayload>({
  key: 'withdrawSign',
  permissions: { request: 'withdrawSign.request', approve: 'withdrawSign.approve' },
  defaultPolicy: { approvals: 1, thresholdUsd: DEFAULT_THRESHOLD_USD, expirySeconds: DEFAULT_EXPIRY_SECONDS },
  // The signed transactions are the result: nothing is broadcast, so nothing settles later.
  finality: 'answer',
  // A signature found after a lost answer settles the request at once: signed if any item was.
  finalWhenFound: (found) => (found.some((f) => f.status === 'SUCCESS') ? 'SUCCESS' : 'FAILED'),
  payloadSchema: withdrawalPayloadSchema,
  itemCount: (p) => p.items.length,
  addressIdOf: () => null,
  buildReview: (payload, ctx) => buildWithdrawalReview('withdrawSign', payload, ctx),
  clientReferences: (p) => p.items.map((i) => i.reference),
  referenceField: (index) => `rows.${index}.reference`,
  async submit(payload: WithdrawalPayload, ctx) {
    const answer = await ctx.client.withdraw.sign(
      { walletId: ctx.walletId },
      { assets: upstreamItems(payload, ctx) },
    );
    const failed = new Map<number, string>();
    for (const e of answer.errors)
      if (typeof e.index === 'number') failed.set(e.index, e.message ?? 'Signing failed');
    // The success list carries no index: it follows the items in order, skipping the failed ones.
    const succeededIndexes = payload.items.map((_, i) => i).filter((i) => !failed.has(i));
    const signed = answer.success.map((s, n) => {
      const index = succeededIndexes[n] ?? n;
      const item = payload.items[index];
      return {
        index,
        transactionId: s.id,
        hash: s.hash,
        signedTransaction: s.signedTransaction,
        decoded: decodeSignedTransaction(s.signedTransaction, item?.decimals),
      };
    });
    const errors = [...failed.entries()].map(([index, message]) => ({ index, message }));
    return {
      items: [
        ...signed.map((s) => ({
          index: s.index,
          transactionId: s.transactionId,
          hash: s.hash,
          status: 'SUCCESS',
        })),
        ...errors.map((e) => ({ index: e.index, status: 'FAILED', error: e.message })),
      ],
      final: signed.length > 0 ? ('SUCCESS' as const) : ('FAILED' as const),
      result: { signed, errors, message: answer.message },
    };
  },
});
