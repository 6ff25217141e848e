// The addresses list's URL state, without zod: the list in the browser loads this module.
import {
  createLoader,
  createParser,
  createSerializer,
  parseAsNumberLiteral,
  parseAsStringLiteral,
} from 'nuqs/server';
import { ADDRESS_TYPES } from '@/lib/custody/constants';
import { hasControlCharacters } from './control-characters';

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

/** The query string of a state (`?search=…`), defaults left out so URLs stay short. */
export function addressFiltersToQuery(filters: Partial<AddressFilters>): string {
  return serializeAddressListSearch({
    search: filters.search ?? null,
    type: filters.type ?? null,
    page: filters.page ?? null,
    limit: (filters.limit as (typeof ADDRESS_PAGE_SIZES)[number] | undefined) ?? null,
  });
}
