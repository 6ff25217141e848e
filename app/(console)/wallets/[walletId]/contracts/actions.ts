'use server';
import { z } from 'zod';
import type { FeeOutcome, ReadOutcome } from '@/lib/approvals/contracts';
import type { CallsBody } from '@/lib/custody';
import { lookUpTypedAddress } from '@/lib/server/address-lookup';
import { getApprovalEngine } from '@/lib/server/approvals';
import { readTokenUnits } from '@/lib/server/contract-tokens';
import { describeFailure } from '@/lib/server/errors';
import { type ActionResult, type Actor, audit, authorize } from '@/lib/server/guard';
import type { Action } from '@/lib/server/permissions';
import { custodyFor } from '@/lib/server/wallets';
import {
  formatReadResult,
  MAX_CONTRACT_CALLS,
  revalidateWireCall,
  type WireCall,
} from '@/lib/validation/abi';
import type { TokenUnits } from '@/lib/validation/abi-units';
import { checkEvmAddress } from '@/lib/validation/addresses';

const callsInput = z.object({
  walletId: z.string().min(1).max(100),
  calls: z
    .array(
      z.object({
        address: z.string().max(100),
        method: z.string().min(1).max(200),
        abi: z.array(z.record(z.string(), z.unknown())).min(1).max(50),
        parameters: z.array(z.unknown()).max(50),
      }),
    )
    .min(1, { message: 'Add at least one call.' })
    .max(MAX_CONTRACT_CALLS, { message: `A batch holds at most ${MAX_CONTRACT_CALLS} calls.` }),
});

const requestInput = callsInput.extend({
  addressId: z.string().min(1, { message: 'Choose the address the calls are made from.' }).max(100),
});

type Failure = { ok: false; error: string; fieldErrors?: Record<string, string>; status?: number };

/** Permission first, then shape, then every call re-checked against its own ABI entry (as the builder did). */
async function check<S extends typeof callsInput | typeof requestInput>(
  action: Action,
  schema: S,
  input: unknown,
): Promise<
  { ok: true; actor: Actor; data: z.output<S>; calls: WireCall[] } | { ok: false; result: Failure }
> {
  const target =
    input && typeof input === 'object' && typeof (input as { walletId?: unknown }).walletId === 'string'
      ? (input as { walletId: string }).walletId
      : undefined;
  const authz = await authorize(action, target);
  if (!authz.ok) return { ok: false, result: { ok: false, error: authz.error, status: authz.status } };
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[issue.path.join('.') || 'form'] ??= issue.message;
    return {
      ok: false,
      result: { ok: false, error: parsed.error.issues[0]?.message ?? 'Check the calls.', fieldErrors },
    };
  }
  const calls: WireCall[] = [];
  const fieldErrors: Record<string, string> = {};
  for (const [i, call] of parsed.data.calls.entries()) {
    const v = revalidateWireCall(call);
    if (v.ok && v.call) calls.push(v.call);
    else fieldErrors[`calls.${i}`] = `Call ${i + 1}: ${Object.values(v.errors)[0] ?? 'invalid'}`;
  }
  if (Object.keys(fieldErrors).length > 0)
    return {
      ok: false,
      result: { ok: false, error: Object.values(fieldErrors)[0] ?? 'Check the calls.', fieldErrors },
    };
  return { ok: true, actor: authz.actor, data: parsed.data as z.output<S>, calls };
}

// viem's ABI types are readonly; the transport's call item is the same JSON.
const wire = (calls: WireCall[]) => calls as unknown as CallsBody['calls'];

function batchErrors(errors: Array<{ index?: number; message?: string }>) {
  return errors.map((e, n) => ({
    index: typeof e.index === 'number' ? e.index : n,
    message: e.message ?? 'The call failed.',
  }));
}

/** #18: runs at once, no approval (a read changes nothing). */
export async function readContractCallsAction(input: unknown): Promise<ActionResult<ReadOutcome>> {
  const checked = await check('contract.read', callsInput, input);
  if (!checked.ok) return checked.result;
  const { actor, data, calls } = checked;
  try {
    const client = await custodyFor(data.walletId);
    if (!client) return { ok: false, error: 'This wallet is not connected to the console.', status: 404 };
    const answer = await client.contracts.read({ walletId: data.walletId }, { calls: wire(calls) });
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
      target: data.walletId,
      input: { calls: calls.map((c) => `${c.address}.${c.method}`), failed: outcome.errors.length },
    });
    return { ok: true, data: outcome };
  } catch (error) {
    const failure = describeFailure(error, actor.requestId, 'contract read');
    await audit(actor, 'contract.read', 'failed', {
      target: data.walletId,
      input: { message: failure.message },
    });
    return { ok: false, error: failure.message };
  }
}

/** #19: the network fee of each call and in total, before anyone asks for a write. */
export async function estimateContractFeesAction(input: unknown): Promise<ActionResult<FeeOutcome>> {
  const checked = await check('contract.read', callsInput, input);
  if (!checked.ok) return checked.result;
  const { actor, data, calls } = checked;
  try {
    const client = await custodyFor(data.walletId);
    if (!client) return { ok: false, error: 'This wallet is not connected to the console.', status: 404 };
    const answer = await client.contracts.networkFee({ walletId: data.walletId }, { calls: wire(calls) });
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
    await audit(actor, 'contract.networkFee', 'success', {
      target: data.walletId,
      input: { calls: calls.length, total: outcome.total },
    });
    return { ok: true, data: outcome };
  } catch (error) {
    return { ok: false, error: describeFailure(error, actor.requestId, 'contract fee estimate').message };
  }
}

async function requestCalls(
  kind: 'contractWrite' | 'contractSign',
  input: unknown,
): Promise<ActionResult<{ id: string }>> {
  const checked = await check(`${kind}.request`, requestInput, input);
  if (!checked.ok) return checked.result;
  const { actor, data, calls } = checked;
  try {
    const engine = await getApprovalEngine();
    // The engine checks the permission again (from the database) and audits the request.
    const created = await engine.create(actor, kind, data.walletId, { addressId: data.addressId, calls });
    if (!created.ok) return created;
    return { ok: true, data: { id: created.data.id } };
  } catch (error) {
    return { ok: false, error: describeFailure(error, actor.requestId, `${kind} request`).message };
  }
}

/** #16 as an approval request: nothing is sent until approved and the approver types the code. */
export async function requestContractWriteAction(input: unknown): Promise<ActionResult<{ id: string }>> {
  return requestCalls('contractWrite', input);
}

/** #17 as an approval request. */
export async function requestContractSignAction(input: unknown): Promise<ActionResult<{ id: string }>> {
  return requestCalls('contractSign', input);
}

/** Checks an address id typed into the builder (#5) and answers it as a source option. */
export async function lookUpContractSourceAction(
  input: unknown,
): Promise<ActionResult<{ id: string; label: string; address: string }>> {
  // Writes and sign-only writes have the same requesters; the request's own permission is checked again.
  return lookUpTypedAddress('contractWrite.request', input);
}

const tokenUnitsInput = z.object({
  walletId: z.string().min(1).max(100),
  address: z.string().max(100),
});

/**
 * decimals() and symbol() of a contract that is not one of the wallet's assets (#18), so the builder can
 * take its amounts in token units; `null` when the contract does not answer them (amounts stay in base units).
 */
export async function readTokenUnitsAction(input: unknown): Promise<ActionResult<TokenUnits | null>> {
  const target =
    input && typeof input === 'object' && typeof (input as { walletId?: unknown }).walletId === 'string'
      ? (input as { walletId: string }).walletId
      : undefined;
  const authz = await authorize('contract.read', target);
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  const parsed = tokenUnitsInput.safeParse(input);
  if (!parsed.success) return { ok: false, error: 'Check the contract address.' };
  const address = checkEvmAddress(parsed.data.address);
  if (!address.ok) return { ok: false, error: address.message, fieldErrors: { address: address.message } };
  try {
    const client = await custodyFor(parsed.data.walletId);
    if (!client) return { ok: false, error: 'This wallet is not connected to the console.', status: 404 };
    return { ok: true, data: await readTokenUnits(client, parsed.data.walletId, address.address) };
  } catch (error) {
    return { ok: false, error: describeFailure(error, authz.actor.requestId, 'token decimals read').message };
  }
}
