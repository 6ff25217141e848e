// Schemas shared by the wallet pages' forms, server actions and route handlers.
import { z } from 'zod';
import { ADDRESS_TYPES } from '@/lib/custody/schemas';

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

/** URL state of the addresses list (`/wallets/[walletId]/addresses?page=&limit=&search=&type=`). */
export const ADDRESS_PAGE_SIZES = [10, 20, 50, 100] as const;
export const addressFiltersSchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  limit: z.coerce
    .number()
    .int()
    .refine((n) => (ADDRESS_PAGE_SIZES as readonly number[]).includes(n))
    .catch(20),
  search: z
    .string()
    .trim()
    .max(100)
    .catch('')
    .transform((s) => s || undefined)
    .optional(),
  type: z.enum(ADDRESS_TYPES).optional().catch(undefined),
});
export type AddressFilters = z.output<typeof addressFiltersSchema>;

/** Parses the URL's search params (bad values fall back to defaults, never an error page). */
export function parseAddressFilters(params: Record<string, string | string[] | undefined>): AddressFilters {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  return addressFiltersSchema.parse({
    page: first(params.page) ?? 1,
    limit: first(params.limit) ?? 20,
    search: first(params.search),
    type: first(params.type) || undefined,
  });
}

/** The inverse: filters to a query string, defaults left out so URLs stay short. */
export function addressFiltersToQuery(filters: Partial<AddressFilters>): string {
  const params = new URLSearchParams();
  if (filters.search) params.set('search', filters.search);
  if (filters.type) params.set('type', filters.type);
  if (filters.page && filters.page > 1) params.set('page', String(filters.page));
  if (filters.limit && filters.limit !== 20) params.set('limit', String(filters.limit));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const revealPrivateKeySchema = z.object({
  walletId: walletIdSchema,
  addressId: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9-]+$/),
  password: z.string().min(1, { message: 'Enter your password' }).max(200),
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
  assetId: z.string().trim().min(1, { message: 'Choose an asset' }).max(100),
  amount: z
    .string()
    .trim()
    .min(1, { message: 'Enter an amount' })
    .regex(DEPOSIT_AMOUNT, { message: 'Enter a positive decimal amount, e.g. 25 or 0.5' })
    .refine((v) => Number(v) > 0, { message: 'The amount must be more than zero' }),
});
export type SimulateDepositInput = z.input<typeof simulateDepositSchema>;
