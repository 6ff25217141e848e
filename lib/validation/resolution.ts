// A manual resolution of a request the custody service cannot settle: what one person saw in the service's
// own dashboard. Shared by the form and the server action.
import { z } from 'zod';
import { plainText } from './text';

export const resolutionSchema = z
  .object({
    requestId: z.uuid({ message: 'Unknown request.' }),
    verdict: z.enum(['paid', 'not_paid', 'failed'], { message: 'Choose what the service shows.' }),
    transactionIds: z.array(z.object({ value: plainText().trim().max(100) })).max(20),
    note: plainText({ multiline: true })
      .trim()
      .min(10, { message: 'Say where you checked and what you saw (at least 10 characters).' })
      .max(500, { message: 'Keep the note under 500 characters.' }),
  })
  .superRefine((v, ctx) => {
    if (v.verdict !== 'paid') return;
    v.transactionIds.forEach((t, i) => {
      if (!/^[\w-]{8,100}$/.test(t.value))
        ctx.addIssue({
          code: 'custom',
          path: ['transactionIds', i, 'value'],
          message: 'Enter the transaction id the service shows for this payment.',
        });
    });
  });

export type ResolutionFormValues = z.input<typeof resolutionSchema>;
