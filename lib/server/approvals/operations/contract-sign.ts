import 'server-only';
// Sign-only contract write (#17) as an operation kind of the approval engine: the service signs the calls,
// the console decodes the signed transactions, nothing is broadcast.
import type { ContractResult } from '@/lib/approvals/contracts';
import {
  batchErrors,
  buildContractReview,
  CONTRACT_DEFAULT_POLICY,
  type ContractCallsPayload,
  codeMissing,
  contractCallsPayloadSchema,
  decodeContractTransaction,
  upstreamCalls,
} from './contract-write';
import { defineOperation } from './types';

export const contractSignOperation = defineOperation<'contractSign', ContractCallsPayload>({
  key: 'contractSign',
  permissions: { request: 'contractSign.request', approve: 'contractSign.approve' },
  defaultPolicy: CONTRACT_DEFAULT_POLICY,
  // The signed transactions are the result: nothing is broadcast.
  finality: 'answer',
  // A batch signature carries no transaction a lookup could find: what is found is followed.
  finalWhenFound: () => null,
  requiresTwoFactor: true,
  payloadSchema: contractCallsPayloadSchema,
  itemCount: (p) => p.calls.length,
  addressIdOf: (p) => p.addressId,
  buildReview: (payload, ctx) => buildContractReview('contractSign', payload, ctx),
  async submit(payload: ContractCallsPayload, ctx) {
    if (!ctx.twoFactorCode) throw codeMissing();
    const answer = await ctx.client.contracts.sign(
      { walletId: ctx.walletId, addressId: payload.addressId },
      { calls: upstreamCalls(payload, ctx, false), code: ctx.twoFactorCode },
    );
    const abiOf = (i: number) => payload.calls[i]?.abi ?? [];
    const signed =
      answer.form === 'single'
        ? [
            {
              index: 0,
              method: payload.calls[0]?.method ?? '',
              transactionId: answer.data.id,
              hash: answer.data.hash,
              signedTransaction: String(answer.data.signedTransaction),
            },
          ]
        : answer.success.map((s) => ({
            index: s.index,
            method: s.method,
            transactionId: null,
            hash: null,
            signedTransaction: s.signedTransaction,
          }));
    const errors = answer.form === 'single' ? [] : batchErrors(answer.errors);
    const success = signed.map((s) => ({
      ...s,
      status: 'SUCCESS',
      decoded: decodeContractTransaction(s.signedTransaction, abiOf(s.index)),
    }));
    const result: ContractResult = { kind: 'contractSign', success, errors, message: answer.message };
    return {
      items: [
        ...success.map((s) => ({
          index: s.index,
          transactionId: s.transactionId,
          hash: s.hash,
          status: 'SUCCESS',
        })),
        ...errors.map((e) => ({ index: e.index, status: 'FAILED', error: e.message })),
      ],
      final: success.length > 0 ? ('SUCCESS' as const) : ('FAILED' as const),
      result,
    };
  },
});
