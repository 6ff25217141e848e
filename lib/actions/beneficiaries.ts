'use server';
import { z } from 'zod';
import { type RequestedChange, requestWalletChange } from '@/lib/actions/configuration-request';
import { type ActionResult, defineAction } from '@/lib/actions/define-action';
import { plainText } from '@/lib/validation/text';

const deleteBeneficiarySchema = z.object({
  walletId: plainText().min(1).max(100),
  beneficiaryId: plainText().min(1).max(100),
});

/**
 * Asks to delete a beneficiary (admins); a second admin approves and the console then deletes it at the custody
 * service. The deletion's audit entry keeps what was deleted, and when: the page lists deleted beneficiaries
 * from it.
 */
export const deleteBeneficiaryAction = defineAction({
  permission: 'beneficiaryDelete.request',
  input: deleteBeneficiarySchema,
  target: (input) => input.beneficiaryId,
  context: 'delete beneficiary',
  stepUp: (input) => ({ change: 'beneficiaryDelete', ...input }),
  run: async ({ input: { walletId, beneficiaryId }, actor }): Promise<ActionResult<RequestedChange>> =>
    requestWalletChange(actor, 'beneficiaryDelete', walletId, { beneficiaryId }),
});
