// Schemas shared by the wallet pages' forms, server actions and route handlers.
import {
  createLoader,
  createParser,
  createSerializer,
  parseAsNumberLiteral,
  parseAsStringLiteral,
} from 'nuqs/server';
import { z } from 'zod';
import { ADDRESS_TYPES } from '@/lib/custody/schemas';
import { hasControlCharacters } from './text';

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

/**
 * URL state of the addresses list (`/wallets/[walletId]/addresses?search=&type=&page=&limit=`), defined once
 * as nuqs parsers: the server page and the route handler read it with the loader, the list writes it with
 * `useQueryStates` on the same parsers. Bad values fall back to defaults, never an error page.
 */
export const ADDRESS_PAGE_SIZES = [10, 20, 50, 100] as const;
const DEFAULT_ADDRESS_PAGE_SIZE = 20;

/** Name or address text, trimmed; blank or longer than 100 characters is no filter. */
const parseAsAddressSearch = createParser({
  parse: (value: string) => {
    const text = value.trim();
    return text && text.length <= 100 && !hasControlCharacters(text) ? text : null;
  },
  serialize: (value: string) => value,
});

const parseAsAddressPage = createParser({
  parse: (value: string) => {
    if (!/^\d{1,6}$/.test(value)) return null;
    const page = Number(value);
    return page >= 1 && page <= 100_000 ? page : null;
  },
  serialize: (value: number) => String(value),
});

/** In the order the query string lists them. */
export const addressListSearchParams = {
  search: parseAsAddressSearch,
  type: parseAsStringLiteral(ADDRESS_TYPES),
  page: parseAsAddressPage.withDefault(1),
  limit: parseAsNumberLiteral(ADDRESS_PAGE_SIZES).withDefault(DEFAULT_ADDRESS_PAGE_SIZE),
};

const loadAddressListSearchParams = createLoader(addressListSearchParams);
const serializeAddressListSearch = createSerializer(addressListSearchParams);

/** The list's URL state with absent filters left out (what the loaders and the query key take). */
export type AddressFilters = {
  page: number;
  limit: number;
  search?: string;
  type?: (typeof ADDRESS_TYPES)[number];
};

type AddressSearchInput = Record<string, string | string[] | undefined> | URLSearchParams | URL | string;

/** Reads the URL's search params (the server page's loader). */
export function parseAddressFilters(params: AddressSearchInput): AddressFilters {
  const { page, limit, search, type } = loadAddressListSearchParams(params);
  return { page, limit, ...(search ? { search } : {}), ...(type ? { type } : {}) };
}

/** The route handler's query: the same lenient read. */
export const addressFiltersSchema = z
  .record(z.string(), z.string())
  .transform((raw): AddressFilters => parseAddressFilters(raw));

/** The query string of a state (`?search=…`), defaults left out so URLs stay short. */
export function addressFiltersToQuery(filters: Partial<AddressFilters>): string {
  return serializeAddressListSearch({
    search: filters.search ?? null,
    type: filters.type ?? null,
    page: filters.page ?? null,
    limit: (filters.limit as (typeof ADDRESS_PAGE_SIZES)[number] | undefined) ?? null,
  });
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
