'use server';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { defineAction, ok } from '@/lib/actions/define-action';
import { audit } from '@/lib/server/guard';

const deleteBeneficiarySchema = z.object({ walletId: z.string().min(1), beneficiaryId: z.string().min(1) });

/**
 * Deletes a beneficiary (admins). The service stops listing deleted beneficiaries, so the audit entry keeps
 * what was deleted, and when: the page lists deleted beneficiaries from it. It is written here because it
 * holds the service's answer.
 */
export const deleteBeneficiaryAction = defineAction({
  permission: 'beneficiary.delete',
  input: deleteBeneficiarySchema,
  context: 'delete beneficiary',
  run: async ({ actor, input: { walletId, beneficiaryId }, custody }) => {
    const client = await custody(walletId);
    const { data: b } = await client.beneficiaries
      .delete({ walletId, id: beneficiaryId })
      .catch(async (error: unknown) => {
        await audit(actor, 'beneficiary.delete', 'failed', { target: beneficiaryId, input: { walletId } });
        throw error;
      });
    await audit(actor, 'beneficiary.delete', 'success', {
      target: beneficiaryId,
      input: {
        walletId,
        name: b.name,
        address: b.address,
        deletedAt: b.deletedAt ?? new Date().toISOString(),
      },
    });
    revalidatePath(`/wallets/${walletId}/beneficiaries`);
    return ok({ deletedAt: b.deletedAt ?? null });
  },
});
