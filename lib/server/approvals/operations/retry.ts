import 'server-only';
// Retrying a FAILED transaction (#1) moves money again: an operation kind like a withdrawal, with four eyes,
// policy, freeze, exactly-once submission and the address book's rules on the recipient (read from the
// transaction the review looks up and stored with it; destinations.ts).
import { z } from 'zod';
import { DESTINATION_POLICY_OFF_WARNING } from '@/lib/approvals/address-book';
import { DEFAULT_EXPIRY_SECONDS } from '@/lib/approvals/policy';
import type { RetryReview } from '@/lib/approvals/types';
import { addressBookPolicyOf } from '../../address-book';
import { looksLikeMissingEndpoint, lookUpTransactions } from '../lookup';
import { reviewWallet } from './review-parts';
import { defineOperation } from './types';

export interface RetryPayload {
  transactionId: string;
  /** The child address the transaction left from, when known: #3 can then look it up without extensions. */
  addressId: string | null;
}

const retryPayloadSchema: z.ZodType<RetryPayload> = z.object({
  transactionId: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[\w-]+$/),
  addressId: z
    .string()
    .trim()
    .max(100)
    .regex(/^[\w-]+$/)
    .nullable(),
});

/** What a person calls each transaction type. */
const NOUNS: Record<string, string> = {
  WITHDRAW: 'withdrawal',
  SWAP: 'swap',
  CUSTOM_SMART_CONTRACT: 'contract call',
};

export const retryOperation = defineOperation({
  key: 'retry',
  permissions: { request: 'transaction.retry', approve: 'retry.approve' },
  // The console does not price the retried transaction (its USD value is unknown), so a threshold would
  // always add an approver: an admin may set one.
  defaultPolicy: { approvals: 1, thresholdUsd: null, expirySeconds: DEFAULT_EXPIRY_SECONDS },
  // Followed until the retried transaction settles upstream.
  finality: 'settlement',
  finalWhenFound: () => null,
  payloadSchema: retryPayloadSchema,
  itemCount: () => 1,
  addressIdOf: (p) => p.addressId,
  transactionIdsOf: (p) => [p.transactionId],
  // Only a change from FAILED shows the retry ran: the transaction existed before it.
  executed: (tx) => tx.status !== 'FAILED',
  async buildReview(payload: RetryPayload, ctx) {
    const [wallet, bookPolicy] = await Promise.all([
      ctx.client.wallets.get({ walletId: ctx.walletId }).then((r) => r.data),
      addressBookPolicyOf(ctx.db),
    ]);
    const found = await lookUpTransactions(
      ctx.client,
      {
        walletId: ctx.walletId,
        addressId: payload.addressId,
        reference: null,
        transactionId: payload.transactionId,
      },
      { missing: new Set(), onMissing: () => {}, isMissingEndpoint: looksLikeMissingEndpoint },
    ).catch(() => null);
    const tx = found?.transactions.find((t) => t.id === payload.transactionId) ?? null;
    const warnings: string[] = [];
    if (wallet.network === 'mainnet') warnings.push('Mainnet: this moves real funds.');
    if (!tx)
      warnings.push(
        'The custody service did not show this transaction to the console: check it in the service before approving.',
      );
    else if (tx.status !== 'FAILED')
      warnings.push(`This transaction is ${tx.status}, not FAILED: the service may refuse the retry.`);
    // With the policy on, the recipient was checked against the book (destinations.ts) or the retry refused.
    if (!bookPolicy.destinationPolicy && tx?.type !== 'SWAP') warnings.push(DESTINATION_POLICY_OFF_WARNING);
    const review: RetryReview = {
      kind: 'retry',
      wallet: reviewWallet(wallet),
      transaction: tx
        ? {
            id: tx.id,
            reference: tx.reference,
            status: tx.status,
            type: tx.type,
            amount: tx.amount,
            symbol: tx.symbol,
            recipientAddress: tx.recipientAddress,
            hash: tx.hash,
          }
        : {
            id: payload.transactionId,
            reference: null,
            status: null,
            type: null,
            amount: null,
            symbol: null,
            recipientAddress: null,
            hash: null,
          },
      warnings,
      builtAt: new Date().toISOString(),
    };
    const what = tx?.amount && tx.symbol ? `${tx.amount} ${tx.symbol}` : payload.transactionId.slice(0, 8);
    return {
      review,
      summary: `Retry ${NOUNS[tx?.type ?? ''] ?? 'transaction'} ${what}`,
      // The service's USD figure is not read here: unknown counts as above the threshold (one more approver).
      amountUsd: null,
    };
  },
  async submit(payload: RetryPayload, ctx) {
    const answer = await ctx.client.transactions.retry({ walletId: ctx.walletId, id: payload.transactionId });
    const tx = answer.data;
    return {
      items: [
        { index: 0, transactionId: tx.id, hash: tx.hash, status: tx.status, confirmations: tx.confirmations },
      ],
    };
  },
});
