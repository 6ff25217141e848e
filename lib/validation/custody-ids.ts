// Ids of the custody service's resources (wallets, addresses, transactions) as an action accepts them: they
// end up in request paths, so nothing but word characters and dashes.
import { z } from 'zod';
import { sinceProblem } from './resend-since';

/** A custody id as a path segment: letters, digits, dashes and underscores, at most 100. */
export const CUSTODY_ID = /^[\w-]{1,100}$/;

const custodyIdSchema = z.string().trim().min(1, 'Missing id').max(100).regex(CUSTODY_ID, 'Not a valid id');

/** One address of a wallet (removing a whitelisted address). */
export const walletAddressSchema = z.object({ walletId: custodyIdSchema, addressId: custodyIdSchema });

export const resendWebhookSchema = z.object({ walletId: custodyIdSchema, transactionId: custodyIdSchema });

/** A bulk resend is bounded: a page of the log at most. */
export const MAX_BULK_RESEND = 100;
export const resendWebhooksSchema = z.object({
  walletId: custodyIdSchema,
  transactionIds: z
    .array(custodyIdSchema)
    .min(1, 'Select at least one delivery')
    .max(MAX_BULK_RESEND, `Select at most ${MAX_BULK_RESEND} deliveries`),
});

/** Every delivery whose latest send failed since a time; `confirm: false` only counts them. */
export const resendFailedSinceSchema = z.object({
  walletId: custodyIdSchema,
  since: z.iso.datetime({ offset: true, message: 'Choose a date and time' }),
  confirm: z.boolean(),
});

/** The resend-since form: a `datetime-local` value in the past (the action then takes it as an ISO time). */
export const resendSinceFormSchema = z.object({
  since: z.string().superRefine((value, ctx) => {
    const problem = sinceProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
});

export const retryTransactionSchema = z.object({
  walletId: custodyIdSchema,
  transactionId: custodyIdSchema,
  addressId: custodyIdSchema.nullish(),
});
