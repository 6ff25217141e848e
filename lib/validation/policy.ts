// The approval policy form: one schema for the form and the action.
import { z } from 'zod';
import { isOperationKind } from '@/lib/approvals/kinds';
import { MAX_EXPIRY_SECONDS, MIN_EXPIRY_SECONDS } from '@/lib/approvals/policy';

export const policySchema = z.object({
  operationType: z.string().refine(isOperationKind, 'Unknown operation type.'),
  approvals: z.coerce
    .number({ message: 'Enter a whole number.' })
    .int({ message: 'Enter a whole number.' })
    .min(1, { message: 'At least one approver is needed.' })
    .max(10, { message: 'At most 10 approvers.' }),
  thresholdUsd: z
    .string()
    .trim()
    .refine((v) => v === '' || (/^\d+(\.\d{1,2})?$/.test(v) && Number(v) >= 0), {
      message: 'Enter a USD amount such as 10000, or leave it empty for no threshold.',
    }),
  expiryMinutes: z
    .string()
    .trim()
    .refine((v) => /^\d+(\.\d+)?$/.test(v), { message: 'Enter a number of minutes.' })
    .transform(Number)
    .refine((m) => m * 60 >= MIN_EXPIRY_SECONDS && m * 60 <= MAX_EXPIRY_SECONDS, {
      message: `Between ${MIN_EXPIRY_SECONDS} seconds and 30 days.`,
    }),
});

export const freezeSchema = z.object({ enabled: z.boolean() });
