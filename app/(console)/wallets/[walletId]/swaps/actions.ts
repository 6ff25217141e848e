'use server';
import { z } from 'zod';
import type { SwapReview } from '@/lib/approvals/swaps';
import { lookUpTypedAddress, verifyTypedSource } from '@/lib/server/address-lookup';
import { sourceBalances, withdrawFormContext } from '@/lib/server/approvals';
import {
  type CheckedOperation,
  createOperationRequest,
  previewOperation,
} from '@/lib/server/approvals/request-actions';
import { describeFailure } from '@/lib/server/errors';
import { type ActionResult, type Actor, authorize } from '@/lib/server/guard';
import { type SwapAsset, type SwapPayload, swapFormSchema, validateSwap } from '@/lib/validation/swaps';

type Checked =
  | { ok: true; actor: Actor; walletId: string; payload: SwapPayload }
  | {
      ok: false;
      result: { ok: false; error: string; fieldErrors?: Record<string, string>; status?: number };
    };

/**
 * The wallet's active assets with the child address's balance (what the amount is checked against); the
 * balance is null (unknown, not checked) when the service cannot report balances.
 */
async function assetsOf(walletId: string, addressId: string): Promise<SwapAsset[] | null> {
  if (addressId === 'master') return null;
  const context = await withdrawFormContext(walletId);
  if (!context) return null;
  // An address off the list is one typed by hand: #5 must confirm it is a child address of the wallet.
  if (!context.sources.some((s) => s.id === addressId) && !(await verifyTypedSource(walletId, addressId)).ok)
    return null;
  const balances = await sourceBalances(walletId, addressId);
  return context.assets.map((a) => {
    const held = balances?.find((b) => b.assetId === a.id);
    return {
      id: a.id,
      symbol: a.symbol,
      decimals: a.decimals,
      balance: held?.balance ?? (balances ? '0' : null),
      priceUsd: held?.priceUsd ?? a.priceUsd,
    };
  });
}

/** Permission, shape, then meaning against the address's balances as the custody service reports them. */
async function check(input: unknown): Promise<Checked> {
  const walletId = z.object({ walletId: z.string().min(1).max(100) }).safeParse(input);
  const authz = await authorize('swap.request', walletId.success ? walletId.data.walletId : undefined);
  if (!authz.ok) return { ok: false, result: { ok: false, error: authz.error, status: authz.status } };
  const parsed = swapFormSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[issue.path.join('.') || 'form'] ??= issue.message;
    return {
      ok: false,
      result: { ok: false, error: parsed.error.issues[0]?.message ?? 'Check the form.', fieldErrors },
    };
  }
  const values = parsed.data;
  const assets = await assetsOf(values.walletId, values.addressId);
  if (!assets)
    return {
      ok: false,
      result: {
        ok: false,
        error: 'Choose a child address of this wallet.',
        fieldErrors: { addressId: 'Choose a child address of this wallet.' },
      },
    };
  const validation = validateSwap(values, assets);
  if (!validation.ok)
    return { ok: false, result: { ok: false, error: validation.error, fieldErrors: validation.fieldErrors } };
  return { ok: true, actor: authz.actor, walletId: values.walletId, payload: validation.payload };
}

export async function previewSwapAction(
  input: unknown,
): Promise<ActionResult<{ review: SwapReview; requiredApprovals: number }>> {
  return previewOperation<SwapReview>(() => withKind(check(input)), 'swap');
}

export async function createSwapRequestAction(input: unknown): Promise<ActionResult<{ id: string }>> {
  return createOperationRequest(() => withKind(check(input)), 'swap');
}

async function withKind(checked: Promise<Checked>): Promise<CheckedOperation> {
  const c = await checked;
  return c.ok ? { ...c, kind: 'swap' } : c;
}

const balancesInput = z.object({
  walletId: z.string().min(1).max(100),
  addressId: z.string().min(1).max(100),
});

/**
 * Balances of the chosen child address, for the form's asset picker and amount check; null when the service
 * cannot report balances.
 */
export async function swapBalancesAction(
  input: unknown,
): Promise<ActionResult<Array<{ assetId: string; balance: string; priceUsd: string | null }> | null>> {
  const parsed = balancesInput.safeParse(input);
  const authz = await authorize('swap.request', parsed.success ? parsed.data.walletId : undefined);
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  if (!parsed.success) return { ok: false, error: 'Choose a child address.' };
  try {
    const balances = await sourceBalances(parsed.data.walletId, parsed.data.addressId);
    return {
      ok: true,
      data: balances
        ? balances.map((b) => ({ assetId: b.assetId, balance: b.balance, priceUsd: b.priceUsd }))
        : null,
    };
  } catch (error) {
    return { ok: false, error: describeFailure(error, authz.actor.requestId, 'swap balances').message };
  }
}

/** Checks an address id typed into the form (#5) and answers it as an address option. */
export async function lookUpSwapAddressAction(
  input: unknown,
): Promise<ActionResult<{ id: string; label: string; address: string }>> {
  return lookUpTypedAddress('swap.request', input);
}
