// URL state of the transactions view (filters, sort, paging, open drawer), defined once as nuqs parsers: the
// server page (loader), the client table (`useQueryStates`), the JSON and CSV route handlers and the command
// palette all read and write it through here.
import {
  createLoader,
  createParser,
  createSerializer,
  type inferParserType,
  parseAsStringLiteral,
} from 'nuqs/server';
import {
  SORT_ORDERS,
  type SortOrder,
  TRANSACTION_FILTER_TYPES,
  TRANSACTION_SORT_FIELDS,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  type TransactionSortField,
} from '@/lib/custody/constants';
import { hasControlCharacters } from './control-characters';

export { TRANSACTION_SORT_FIELDS, type TransactionSortField };

/** Rows per page the view offers; above 500 the console joins several upstream pages. */
export const TRANSACTION_PAGE_SIZES = [10, 25, 50, 100, 250, 500, 1000] as const;
const DEFAULT_TRANSACTION_PAGE_SIZE = 50;
/** Largest `limit` sent upstream in one call (the sandbox caps at 500; the spec leaves the maximum open). */
export const UPSTREAM_MAX_PAGE_SIZE = 500;
const MAX_TRANSACTION_PAGE = 1_000_000;

/** Direction a column starts in when it becomes the sort: dates and amounts largest first, words A to Z. */
export const FIRST_SORT_ORDER: Record<TransactionSortField, SortOrder> = {
  createdAt: 'DESC',
  amount: 'DESC',
  amountUSD: 'DESC',
  type: 'ASC',
  status: 'ASC',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX_HASH = /^(0x)?[0-9a-fA-F]{64}$/;
const SYMBOL = /^[A-Z0-9.]{1,16}$/;

const parseAsUuid = createParser({
  parse: (value: string) => (UUID.test(value) ? value : null),
  serialize: (value: string) => value,
});

const parseAsHash = createParser({
  parse: (value: string) => (/^[0-9A-Za-z]{16,128}$/.test(value) ? value : null),
  serialize: (value: string) => value,
});

const parseAsReference = createParser({
  parse: (value: string) => {
    const text = value.trim();
    return text.length >= 1 && text.length <= 200 && !hasControlCharacters(text) ? text : null;
  },
  serialize: (value: string) => value,
});

/** Comma-separated asset symbols, upper-cased; one bad symbol (or more than 20) voids the filter. */
const parseAsSymbols = createParser({
  parse: (value: string) => {
    const list = value
      .split(',')
      .map((s) => s.trim().toUpperCase())
      .filter(Boolean);
    return list.length <= 20 && list.every((s) => SYMBOL.test(s)) ? list : null;
  },
  serialize: (value: readonly string[]) => value.join(','),
  eq: (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((s, i) => s === b[i]),
});

const wholeNumber = (value: string, min: number, max: number): number | null => {
  if (!/^\d{1,7}$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
};

const parseAsPage = createParser({
  parse: (value: string) => wholeNumber(value, 1, MAX_TRANSACTION_PAGE),
  serialize: (value: number) => String(value),
});

const parseAsPageSize = createParser({
  parse: (value: string) => {
    const n = wholeNumber(value, 1, 1000);
    return n !== null && (TRANSACTION_PAGE_SIZES as readonly number[]).includes(n) ? n : null;
  },
  serialize: (value: number) => String(value),
});

/**
 * Each field of the URL. A bad value falls back to its default (an edited or stale link still opens); the
 * route handlers are strict instead (`transactionSearchSchema`, 422 naming each bad field).
 */
export const transactionSearchParsers = {
  status: parseAsStringLiteral(TRANSACTION_STATUSES),
  type: parseAsStringLiteral(TRANSACTION_TYPES),
  assets: parseAsSymbols.withDefault([]),
  /** The column the whole result is sorted by (on the server, or merged in the console: see lib/server). */
  sort: parseAsStringLiteral(TRANSACTION_SORT_FIELDS).withDefault('createdAt'),
  order: parseAsStringLiteral(SORT_ORDERS).withDefault('DESC'),
  id: parseAsUuid,
  hash: parseAsHash,
  reference: parseAsReference,
  addressId: parseAsUuid,
  page: parseAsPage.withDefault(1),
  limit: parseAsPageSize.withDefault(DEFAULT_TRANSACTION_PAGE_SIZE),
  /** The transaction whose drawer is open. */
  open: parseAsUuid,
};

/** What each field accepts, for the strict check's messages. */
const FIELD_RULES: Record<keyof typeof transactionSearchParsers, string> = {
  status: `must be one of ${TRANSACTION_STATUSES.join(', ')}`,
  type: `must be one of ${TRANSACTION_TYPES.join(', ')}`,
  assets: 'must be up to 20 comma-separated asset symbols',
  sort: `must be one of ${TRANSACTION_SORT_FIELDS.join(', ')}`,
  order: `must be one of ${SORT_ORDERS.join(', ')}`,
  id: 'must be a UUID',
  hash: 'must be a transaction hash',
  reference: 'must be 1 to 200 characters',
  addressId: 'must be a UUID',
  page: `must be a whole number from 1 to ${MAX_TRANSACTION_PAGE}`,
  limit: `must be one of ${TRANSACTION_PAGE_SIZES.join(', ')}`,
  open: 'must be a UUID',
};

type Loaded = inferParserType<typeof transactionSearchParsers>;
/** The view's state; an absent filter is `undefined` (nuqs's `null` stays at the URL boundary). */
export type TransactionSearch = {
  [K in keyof Loaded]: null extends Loaded[K] ? Exclude<Loaded[K], null> | undefined : Loaded[K];
};
/** What the server filters and sorts on: everything but the open drawer. Also the variable part of the query key. */
export type TransactionFilterState = Omit<TransactionSearch, 'open'>;

const loadTransactionSearch = createLoader(transactionSearchParsers);
const serializeSearch = createSerializer(transactionSearchParsers);

/** nuqs's values with `null` (absent) as `undefined`, and the per-address scope applied. */
export function transactionSearchOf(values: Loaded): TransactionSearch {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) out[key] = value ?? undefined;
  return normalizeScope(out as TransactionSearch);
}

/** The other way: a patch for nuqs, where `undefined` (no filter) is written as `null` (remove). */
export function toUrlValues(
  patch: Partial<TransactionSearch>,
): Partial<{ [K in keyof Loaded]: Loaded[K] | null }> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) out[key] = value ?? null;
  return out as Partial<{ [K in keyof Loaded]: Loaded[K] | null }>;
}

export const DEFAULT_TRANSACTION_SEARCH: TransactionSearch = transactionSearchOf(loadTransactionSearch(''));

type SearchInput = URLSearchParams | Record<string, string | string[] | undefined>;

/** Lenient read of the URL (the server page's loader): every bad value falls back to its default. */
export function parseTransactionSearch(input: SearchInput): TransactionSearch {
  return transactionSearchOf(loadTransactionSearch(input));
}

function firstValue(input: SearchInput, key: string): string | undefined {
  if (input instanceof URLSearchParams) return input.get(key) ?? undefined;
  const value = input[key];
  return Array.isArray(value) ? value[0] : value;
}

/** The fields whose value the parsers refuse (an empty value counts as absent, not as bad). */
export function badFields(input: SearchInput): string[] {
  const errors: string[] = [];
  for (const [key, parser] of Object.entries(transactionSearchParsers)) {
    const value = firstValue(input, key);
    if (value === undefined || value === '') continue;
    if (parser.parse(value) === null)
      errors.push(`${key}: ${FIELD_RULES[key as keyof typeof transactionSearchParsers]}`);
  }
  return errors;
}

/** Strict read for route handlers; the error lists each bad field. */
export function parseTransactionSearchStrict(
  input: SearchInput,
): { ok: true; data: TransactionSearch } | { ok: false; error: string } {
  const errors = badFields(input);
  if (errors.length > 0) return { ok: false, error: errors.join('; ') };
  return { ok: true, data: parseTransactionSearch(input) };
}

// #3 (per address) filters by DEPOSIT, WITHDRAW and SALVAGE only and has no `reference`; rather than send
// a filter the endpoint refuses, drop it.
function normalizeScope(search: TransactionSearch): TransactionSearch {
  if (!search.addressId) return search;
  const typeAllowed =
    search.type === undefined || (TRANSACTION_FILTER_TYPES as readonly string[]).includes(search.type);
  return { ...search, type: typeAllowed ? search.type : undefined, reference: undefined };
}

/** Query string of a state, without defaults (shareable, short), in the parsers' key order. */
export function serializeTransactionSearch(search: Partial<TransactionSearch>): string {
  return serializeSearch(toUrlValues(search)).replace(/^\?/, '');
}

export function filtersOf(search: TransactionSearch): TransactionFilterState {
  const { open: _open, ...filters } = search;
  return filters;
}

/** True when anything narrows the list (the empty state then offers to reset). Sorting narrows nothing. */
export function hasActiveFilters(search: TransactionSearch): boolean {
  return Boolean(
    search.status ||
      search.type ||
      search.assets.length > 0 ||
      search.id ||
      search.hash ||
      search.reference ||
      search.addressId,
  );
}

/** The last page that has rows (1 when there are none): a page beyond it shows this one instead. */
export function clampPage(page: number, totalItems: number, limit: number): number {
  const last = Math.max(1, Math.ceil(totalItems / limit));
  return Math.min(Math.max(1, page), last);
}

export type SearchTarget =
  | { field: 'id' | 'hash' | 'reference'; value: string }
  | { field: null; error: string };

/**
 * What a search box entry is: a transaction id (UUID), a hash (64 hex digits, with or without 0x), or a
 * reference. References only exist on the wallet-wide list.
 */
export function classifyTransactionSearch(
  text: string,
  scope: 'wallet' | 'address' = 'wallet',
): SearchTarget {
  const value = text.trim();
  if (!value) return { field: null, error: 'Enter a transaction id, hash or reference.' };
  if (UUID.test(value)) return { field: 'id', value: value.toLowerCase() };
  if (HEX_HASH.test(value)) return { field: 'hash', value };
  if (scope === 'address') {
    if (/^[0-9A-Za-z]{16,128}$/.test(value)) return { field: 'hash', value };
    return { field: null, error: 'Search an address’s transactions by id or hash.' };
  }
  if (value.length > 200) return { field: null, error: 'A reference is at most 200 characters.' };
  return { field: 'reference', value };
}

/** The page of upstream calls that make up one console page (a 1000-row page is two 500-row calls). */
export function upstreamPagesFor(page: number, limit: number): { page: number; limit: number }[] {
  if (limit <= UPSTREAM_MAX_PAGE_SIZE) return [{ page, limit }];
  const chunk = UPSTREAM_MAX_PAGE_SIZE;
  const parts = Math.ceil(limit / chunk);
  const first = (page - 1) * parts + 1;
  return Array.from({ length: parts }, (_, i) => ({ page: first + i, limit: chunk }));
}
