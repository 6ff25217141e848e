'use server';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { describeFailure } from '@/lib/server/errors';
import { type ActionResult, audit, authorize } from '@/lib/server/guard';
import { custodyFor } from '@/lib/server/wallets';

const inputSchema = z.object({ walletId: z.string().min(1), beneficiaryId: z.string().min(1) });

export async function deleteBeneficiaryAction(
  input: unknown,
): Promise<ActionResult<{ deletedAt: string | null }>> {
  const authz = await authorize('beneficiary.delete');
  if (!authz.ok) return { ok: false, error: authz.error };
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: 'Invalid request' };
  const { walletId, beneficiaryId } = parsed.data;
  const client = await custodyFor(walletId);
  if (!client) return { ok: false, error: 'This wallet is not connected to the console.' };
  try {
    const result = await client.beneficiaries.delete({ walletId, id: beneficiaryId });
    const b = result.data;
    // The service stops listing deleted beneficiaries; the audit entry keeps what was deleted, and when.
    await audit(authz.actor, 'beneficiary.delete', 'success', {
      target: beneficiaryId,
      input: {
        walletId,
        name: b.name,
        address: b.address,
        deletedAt: b.deletedAt ?? new Date().toISOString(),
      },
    });
    revalidatePath(`/wallets/${walletId}/beneficiaries`);
    return { ok: true, data: { deletedAt: b.deletedAt ?? null } };
  } catch (error) {
    await audit(authz.actor, 'beneficiary.delete', 'failed', { target: beneficiaryId, input: { walletId } });
    return { ok: false, error: describeFailure(error, authz.actor.requestId, 'delete beneficiary').message };
  }
}
