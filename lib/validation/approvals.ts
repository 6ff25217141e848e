// What a person sends when deciding on an approval request: shared by the request page's forms and the
// approval actions.
import { z } from 'zod';
import { plainText } from './text';

export const requestIdSchema = z.object({ requestId: z.uuid({ message: 'Unknown request.' }) });

export const rejectSchema = requestIdSchema.extend({
  reason: plainText({ multiline: true })
    .trim()
    .min(3, { message: 'Give a reason of at least 3 characters.' })
    .max(500, { message: 'Keep the reason under 500 characters.' }),
});
export type RejectFormValues = z.input<typeof rejectSchema>;

/** The custody service's two-factor code (contract write and sign): passed to one submission only, never stored. */
const twoFactorCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, { message: 'Enter the 6-digit two-factor code.' });

/** An approval, with the code when this approval submits a request that needs one. */
export const approveSchema = requestIdSchema.extend({ twoFactorCode: twoFactorCodeSchema.optional() });
export type ApproveFormValues = z.input<typeof approveSchema>;

/** A resubmission; `acknowledged` is the approver's confirmation in words after an unknown outcome. */
export const resubmitSchema = approveSchema.extend({ acknowledged: z.boolean().optional() });
