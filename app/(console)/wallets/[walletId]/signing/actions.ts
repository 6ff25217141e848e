'use server';
import { z } from 'zod';
import type { TypedDataReview } from '@/components/signing/types';
import { getApprovalEngine } from '@/lib/server/approvals';
import type { TypedDataPayload } from '@/lib/server/approvals/typed-data';
import { describeFailure } from '@/lib/server/errors';
import { type ActionResult, type Actor, authorize } from '@/lib/server/guard';
import { custodyFor } from '@/lib/server/wallets';
import { checkTypedData } from '@/lib/validation/typed-data';

const inputSchema = z.object({
  walletId: z.string().min(1).max(100),
  addressId: z.string().min(1, 'Choose the signing address.').max(100),
  domain: z.unknown(),
  types: z.unknown(),
  message: z.unknown(),
  primaryType: z.string().max(200).nullable().optional(),
});

type Checked =
  | { ok: true; actor: Actor; walletId: string; payload: TypedDataPayload }
  | {
      ok: false;
      result: { ok: false; error: string; fieldErrors?: Record<string, string>; status?: number };
    };

/** Permission, shape, the types and message agreeing, then the signing address as the custody service has it. */
async function check(input: unknown): Promise<Checked> {
  const walletId = z.object({ walletId: z.string().min(1).max(100) }).safeParse(input);
  const authz = await authorize(
    'typedDataSign.request',
    walletId.success ? walletId.data.walletId : undefined,
  );
  if (!authz.ok) return { ok: false, result: { ok: false, error: authz.error, status: authz.status } };
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[issue.path.join('.') || 'form'] ??= issue.message;
    return {
      ok: false,
      result: { ok: false, error: parsed.error.issues[0]?.message ?? 'Check the form.', fieldErrors },
    };
  }
  const typed = checkTypedData(parsed.data);
  if (!typed.ok)
    return { ok: false, result: { ok: false, error: typed.error, fieldErrors: typed.fieldErrors } };
  const client = await custodyFor(parsed.data.walletId);
  if (!client)
    return {
      ok: false,
      result: { ok: false, error: 'This wallet is not connected to the console.', status: 404 },
    };
  const child = (
    await client.addresses.get({ walletId: parsed.data.walletId, addressId: parsed.data.addressId })
  ).data;
  if (child.type && child.type !== 'INTERNAL')
    return {
      ok: false,
      result: {
        ok: false,
        error: 'Sign from a child address of this wallet.',
        fieldErrors: { addressId: 'Sign from a child address of this wallet.' },
      },
    };
  return {
    ok: true,
    actor: authz.actor,
    walletId: parsed.data.walletId,
    payload: { addressId: child.id, signer: child.address, ...typed.value },
  };
}

export async function previewTypedDataAction(
  input: unknown,
): Promise<ActionResult<{ review: TypedDataReview; requiredApprovals: number }>> {
  try {
    const checked = await check(input);
    if (!checked.ok) return checked.result;
    const engine = await getApprovalEngine();
    const preview = await engine.preview(checked.actor, 'typedDataSign', checked.walletId, checked.payload);
    if (!preview.ok) return preview;
    return {
      ok: true,
      data: {
        review: preview.data.review as unknown as TypedDataReview,
        requiredApprovals: preview.data.requiredApprovals,
      },
    };
  } catch (error) {
    return { ok: false, error: describeFailure(error, null, 'typed-data preview').message };
  }
}

export async function createTypedDataRequestAction(input: unknown): Promise<ActionResult<{ id: string }>> {
  try {
    const checked = await check(input);
    if (!checked.ok) return checked.result;
    const engine = await getApprovalEngine();
    const created = await engine.create(checked.actor, 'typedDataSign', checked.walletId, checked.payload);
    if (!created.ok) return created;
    return { ok: true, data: { id: created.data.id } };
  } catch (error) {
    return { ok: false, error: describeFailure(error, null, 'typed-data request').message };
  }
}
