// Schemas shared by the wallet pages' forms, server actions and route handlers.
import { z } from 'zod';
import { type AddressFilters, parseAddressFilters } from './address-search';
import { plainText } from './text';

const walletIdSchema = z
  .string()
  .trim()
  .min(1, { message: 'Enter the wallet id' })
  .max(100, { message: 'A wallet id is at most 100 characters' })
  // Ids become path segments of custody calls.
  .regex(/^[A-Za-z0-9-]+$/, { message: 'A wallet id has only letters, digits and dashes' });

const apiKeySchema = z
  .string()
  .trim()
  .min(8, { message: 'Enter the wallet’s API key' })
  .max(500, { message: 'That API key is too long' })
  .regex(/^[\x21-\x7e]+$/, { message: 'An API key has no spaces or special characters' });

export const connectWalletSchema = z.object({ walletId: walletIdSchema, apiKey: apiKeySchema });
export const rotateWalletKeySchema = z.object({ walletId: walletIdSchema, apiKey: apiKeySchema });
export const removeWalletSchema = z.object({ walletId: walletIdSchema });

export type ConnectWalletInput = z.input<typeof connectWalletSchema>;

/** The route handler's query: the same lenient read. */
export const addressFiltersSchema = z
  .record(z.string(), z.string())
  .transform((raw): AddressFilters => parseAddressFilters(raw));

/** Asking to see an address's private key: a second admin approves. */
export const privateKeyRevealRequestSchema = z.object({
  walletId: walletIdSchema,
  addressId: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9-]+$/),
});

/** Seeing it, once, after the approval: the admin's password and the approved request. */
export const revealPrivateKeySchema = privateKeyRevealRequestSchema.extend({
  password: z.string().min(1, { message: 'Enter your password' }).max(200),
  requestId: z.uuid({ message: 'No approved request to show this key.' }),
});

const DEPOSIT_AMOUNT = /^(?:0|[1-9]\d{0,17})(?:\.\d{1,18})?$/;
export const simulateDepositSchema = z.object({
  walletId: walletIdSchema,
  addressId: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9-]+$/),
  assetId: plainText().trim().min(1, { message: 'Choose an asset' }).max(100),
  amount: z
    .string()
    .trim()
    .min(1, { message: 'Enter an amount' })
    .regex(DEPOSIT_AMOUNT, { message: 'Enter a positive decimal amount, e.g. 25 or 0.5' })
    .refine((v) => Number(v) > 0, { message: 'The amount must be more than zero' }),
});
export type SimulateDepositInput = z.input<typeof simulateDepositSchema>;
