'use server';
import { z } from 'zod';
import type { TypedDataReview } from '@/lib/approvals/signing';
import { lookUpTypedAddress } from '@/lib/server/address-lookup';
import {
  type CheckedOperation,
  createOperationRequest,
  previewOperation,
} from '@/lib/server/approvals/request-actions';
import type { TypedDataPayload } from '@/lib/server/approvals/typed-data';
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
  return previewOperation<TypedDataReview>(() => withKind(check(input)), 'typed-data');
}

export async function createTypedDataRequestAction(input: unknown): Promise<ActionResult<{ id: string }>> {
  return createOperationRequest(() => withKind(check(input)), 'typed-data');
}

async function withKind(checked: Promise<Checked>): Promise<CheckedOperation> {
  const c = await checked;
  return c.ok ? { ...c, kind: 'typedDataSign' } : c;
}

/** Checks an address id typed into the form (#5) and answers it as a signing address option. */
export async function lookUpSigningAddressAction(
  input: unknown,
): Promise<ActionResult<{ id: string; label: string; address: string }>> {
  return lookUpTypedAddress('typedDataSign.request', input);
}
