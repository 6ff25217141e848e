'use server';
import { z } from 'zod';
import type { WithdrawalReview } from '@/lib/approvals/requests';
import { lookUpTypedAddress, verifyTypedSource } from '@/lib/server/address-lookup';
import { sourceBalances, withdrawFormContext } from '@/lib/server/approvals';
import { createOperationRequest, previewOperation } from '@/lib/server/approvals/request-actions';
import { describeFailure } from '@/lib/server/errors';
import { type ActionResult, type Actor, authorize } from '@/lib/server/guard';
import {
  type SourceBalanceMap,
  validateWithdrawal,
  type WithdrawalPayload,
  withdrawalFormSchema,
} from '@/lib/validation/withdrawals';

type Checked =
  | {
      ok: true;
      actor: Actor;
      walletId: string;
      kind: 'withdraw' | 'withdrawSign';
      payload: WithdrawalPayload;
    }
  | {
      ok: false;
      result: { ok: false; error: string; fieldErrors?: Record<string, string>; status?: number };
    };

/**
 * The source's balances the amounts are checked against: the master wallet's from the form context, a child
 * address's read from the service. Null (unknown, never blocking) when the service gives no balances or the
 * read fails: the custody service itself refuses what the source cannot pay.
 */
async function balancesOf(
  walletId: string,
  source: string,
  context: NonNullable<Awaited<ReturnType<typeof withdrawFormContext>>>,
): Promise<SourceBalanceMap | null> {
  if (context.balances !== 'available' && context.balances !== 'failed') return null;
  if (source === 'master') {
    if (context.balances !== 'available') return null;
    return Object.fromEntries(context.assets.map((a) => [a.id, a.balance]));
  }
  try {
    const balances = await sourceBalances(walletId, source);
    return balances ? Object.fromEntries(balances.map((b) => [b.assetId, b.balance])) : null;
  } catch {
    return null;
  }
}

/** Shape, permission, then meaning against the wallet as the custody service describes it. */
async function check(input: unknown): Promise<Checked> {
  const parsed = withdrawalFormSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[issue.path.join('.') || 'form'] ??= issue.message;
    return {
      ok: false,
      result: { ok: false, error: parsed.error.issues[0]?.message ?? 'Check the form.', fieldErrors },
    };
  }
  const values = parsed.data;
  const authz = await authorize(
    values.kind === 'withdrawSign' ? 'withdrawSign.request' : 'withdraw.request',
    values.walletId,
  );
  if (!authz.ok) return { ok: false, result: { ok: false, error: authz.error, status: authz.status } };
  const context = await withdrawFormContext(values.walletId);
  if (!context)
    return {
      ok: false,
      result: { ok: false, error: 'This wallet is not connected to the console.', status: 404 },
    };
  // A source off the list is an address id typed by hand: accepted once #5 confirms it is a child address.
  if (!context.sources.some((s) => s.id === values.source)) {
    const typed = await verifyTypedSource(values.walletId, values.source);
    if (!typed.ok)
      return {
        ok: false,
        result: {
          ok: false,
          error: 'Choose a source of this wallet.',
          fieldErrors: { source: typed.error },
        },
      };
  }
  const validation = validateWithdrawal(values, {
    assets: context.assets,
    chain: { isEvmCompatible: context.wallet.isEvmCompatible },
    balances: await balancesOf(values.walletId, values.source.trim(), context),
  });
  if (!validation.ok)
    return { ok: false, result: { ok: false, error: validation.error, fieldErrors: validation.fieldErrors } };
  return {
    ok: true,
    actor: authz.actor,
    walletId: values.walletId,
    kind: values.kind,
    payload: validation.payload,
  };
}

export async function previewWithdrawalAction(
  input: unknown,
): Promise<ActionResult<{ review: WithdrawalReview; requiredApprovals: number }>> {
  const preview = await previewOperation<WithdrawalReview>(() => check(input), 'withdrawal');
  if (!preview.ok) return preview;
  // References are assigned when the request is created; a preview's would never be used.
  const review = {
    ...preview.data.review,
    items: preview.data.review.items.map((i) => ({ ...i, reference: '' })),
  };
  return { ok: true, data: { ...preview.data, review } };
}

export async function createWithdrawalRequestAction(input: unknown): Promise<ActionResult<{ id: string }>> {
  return createOperationRequest(() => check(input), 'withdrawal');
}

const balancesInput = z.object({
  walletId: z.string().min(1).max(100),
  addressId: z.string().min(1).max(100),
});

/** Balances of a child address; null when the service cannot report balances (unknown, not zero). */
export async function sourceBalancesAction(
  input: unknown,
): Promise<ActionResult<Array<{ assetId: string; balance: string }> | null>> {
  const parsed = balancesInput.safeParse(input);
  if (!parsed.success) return { ok: false, error: 'Invalid source.' };
  const authz = await authorize('read', parsed.data.walletId);
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  try {
    const balances = await sourceBalances(parsed.data.walletId, parsed.data.addressId);
    return {
      ok: true,
      data: balances ? balances.map((b) => ({ assetId: b.assetId, balance: b.balance })) : null,
    };
  } catch (error) {
    return { ok: false, error: describeFailure(error, authz.actor.requestId, 'source balances').message };
  }
}

/** Checks an address id typed into the form (#5) and answers it as a source option. */
export async function lookUpWithdrawSourceAction(
  input: unknown,
): Promise<ActionResult<{ id: string; label: string; address: string }>> {
  return lookUpTypedAddress('withdraw.request', input);
}
