'use server';
import { z } from 'zod';
import { ActionRefusal, defineAction, ok } from '@/lib/actions/define-action';
import type { FeeOutcome, ReadOutcome } from '@/lib/approvals/contracts';
import { isReviewOf } from '@/lib/approvals/kinds';
import type { CustodyClient } from '@/lib/custody';
import { CustodyError } from '@/lib/custody/errors';
import { lookUpTypedAddress } from '@/lib/server/address-lookup';
import { getApprovalEngine } from '@/lib/server/approvals';
import { readTokenUnits } from '@/lib/server/contract-tokens';
import { describeFailure } from '@/lib/server/errors';
import { audit } from '@/lib/server/guard';
import {
  type ContractRequestValues,
  formatReadResult,
  revalidateWireCall,
  type SentCall,
  type WireCall,
} from '@/lib/validation/abi';
import type { TokenUnits } from '@/lib/validation/abi-units';
import { checkEvmAddress } from '@/lib/validation/addresses';
import { contractCallsSchema, contractRequestSchema } from '@/lib/validation/contract-schema';
import { plainText } from '@/lib/validation/text';

/** Every call re-checked against its own ABI entry (as the builder did), so a tampered batch is refused. */
function checkedCalls(input: { calls: SentCall[] }): WireCall[] {
  const calls: WireCall[] = [];
  const fieldErrors: Record<string, string> = {};
  for (const [i, call] of input.calls.entries()) {
    const v = revalidateWireCall(call);
    if (v.ok && v.call) calls.push(v.call);
    else fieldErrors[`calls.${i}`] = `Call ${i + 1}: ${Object.values(v.errors)[0] ?? 'invalid'}`;
  }
  if (Object.keys(fieldErrors).length > 0)
    throw new ActionRefusal(Object.values(fieldErrors)[0] ?? 'Check the calls.', fieldErrors);
  return calls;
}

function batchErrors(errors: Array<{ index?: number; message?: string }>) {
  return errors.map((e, n) => ({
    index: typeof e.index === 'number' ? e.index : n,
    message: e.message ?? 'The call failed.',
  }));
}

/** #18: runs at once, no approval (a read changes nothing). Audited here: the entry counts the failed calls. */
export const readContractCallsAction = defineAction({
  permission: 'contract.read',
  input: contractCallsSchema,
  invalid: 'first-issue',
  target: (input) => input.walletId,
  context: 'contract read',
  run: async ({ actor, input, custody }) => {
    const calls = checkedCalls(input);
    const client = await custody(input.walletId);
    try {
      const answer = await client.contracts.read({ walletId: input.walletId }, { calls });
      const outcome: ReadOutcome =
        answer.form === 'single'
          ? {
              results: [{ index: 0, method: calls[0]?.method ?? '', value: formatReadResult(answer.data) }],
              errors: [],
              message: answer.message,
            }
          : {
              results: answer.success.map((s) => ({
                index: s.index,
                method: s.method,
                value: formatReadResult(s.data),
              })),
              errors: batchErrors(answer.errors),
              message: answer.message,
            };
      await audit(actor, 'contract.read', 'success', {
        target: input.walletId,
        input: { calls: calls.map((c) => `${c.address}.${c.method}`), failed: outcome.errors.length },
      });
      return ok(outcome);
    } catch (error) {
      const failure = describeFailure(error, actor.requestId, 'contract read');
      await audit(actor, 'contract.read', 'failed', {
        target: input.walletId,
        input: { message: failure.message },
      });
      return { ok: false, error: failure.message };
    }
  },
});

/** #19: the network fee of each call and in total, before anyone asks for a write. */
export const estimateContractFeesAction = defineAction({
  permission: 'contract.read',
  input: contractCallsSchema,
  invalid: 'first-issue',
  target: (input) => input.walletId,
  context: 'contract fee estimate',
  run: async ({ actor, input, custody }) => {
    const calls = checkedCalls(input);
    const client = await custody(input.walletId);
    const answer = await client.contracts.networkFee({ walletId: input.walletId }, { calls });
    const outcome: FeeOutcome =
      answer.form === 'single'
        ? {
            fees: [{ index: 0, method: calls[0]?.method ?? '', fee: answer.data.fee, networkFeeUsd: null }],
            total: answer.data.fee,
            errors: [],
            message: answer.message,
          }
        : {
            fees: answer.fees.map((f) => ({
              index: f.index,
              method: f.method,
              fee: f.networkFee,
              networkFeeUsd: f.networkFeeInUSD,
            })),
            total: answer.totalFee,
            errors: batchErrors(answer.errors),
            message: answer.message,
          };
    // Only estimates that answered are logged (as before): a failed estimate changes nothing.
    await audit(actor, 'contract.networkFee', 'success', {
      target: input.walletId,
      input: { calls: calls.length, total: outcome.total },
    });
    return ok(outcome);
  },
});

const NOT_IN_WALLET = 'This address is not part of the wallet.';

/** The calls' source must be one of the wallet's addresses: anything else is refused at its field. */
async function checkSourceAddress(
  custody: (walletId: string) => Promise<CustodyClient>,
  walletId: string,
  addressId: string,
): Promise<void> {
  const client = await custody(walletId);
  try {
    await client.addresses.get({ walletId, addressId });
  } catch (error) {
    if (error instanceof CustodyError && error.status >= 400 && error.status < 500)
      throw new ActionRefusal(NOT_IN_WALLET, { addressId: NOT_IN_WALLET });
    throw error;
  }
}

const contractRequest = {
  // Writes and sign-only writes have their own permission; the engine checks it again from the database.
  permission: (input: ContractRequestValues) => `${input.kind}.request` as const,
  input: contractRequestSchema,
  invalid: 'first-issue' as const,
  target: (input: ContractRequestValues) => input.walletId,
};

/** The review approvers will see of a write (#16) or sign-only write (#17), without creating the request. */
export const previewContractRequestAction = defineAction({
  ...contractRequest,
  context: 'contract request preview',
  run: async ({ actor, input, custody }) => {
    const payload = { addressId: input.addressId, calls: checkedCalls(input) };
    await checkSourceAddress(custody, input.walletId, input.addressId);
    const preview = await (await getApprovalEngine()).preview(actor, input.kind, input.walletId, payload);
    if (!preview.ok) return preview;
    const { review } = preview.data;
    if (!isReviewOf(review, input.kind))
      throw new Error('The contract preview has a review of another kind.');
    return ok({
      review,
      requiredApprovals: preview.data.requiredApprovals,
    });
  },
});

/** #16 or #17 as an approval request: nothing is sent until approved and the approver types the code. */
export const createContractRequestAction = defineAction({
  ...contractRequest,
  context: 'contract request',
  run: async ({ actor, input, custody }) => {
    const payload = { addressId: input.addressId, calls: checkedCalls(input) };
    await checkSourceAddress(custody, input.walletId, input.addressId);
    const created = await (await getApprovalEngine()).create(actor, input.kind, input.walletId, payload);
    if (!created.ok) return created;
    return ok({ id: created.data.id });
  },
});

/** Checks an address id typed into the builder (#5) and answers it as a source option. */
export async function lookUpContractSourceAction(input: unknown) {
  // Writes and sign-only writes have the same requesters; the request's own permission is checked again.
  return lookUpTypedAddress('contractWrite.request', input);
}

const tokenUnitsInput = z.object({
  walletId: plainText().min(1).max(100),
  address: plainText().max(100),
});

/**
 * decimals() and symbol() of a contract that is not one of the wallet's assets (#18), so the builder can
 * take its amounts in token units; `null` when the contract does not answer them (amounts stay in base units).
 */
export const readTokenUnitsAction = defineAction({
  permission: 'contract.read',
  input: tokenUnitsInput,
  context: 'token decimals read',
  run: async ({ input, custody }) => {
    const address = checkEvmAddress(input.address);
    if (!address.ok) return { ok: false, error: address.message, fieldErrors: { address: address.message } };
    const client = await custody(input.walletId);
    return ok<TokenUnits | null>(await readTokenUnits(client, input.walletId, address.address));
  },
});
