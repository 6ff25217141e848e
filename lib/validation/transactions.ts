// URL state of the transactions view (filters, paging, open drawer), defined once: the server page, the
// client table, the JSON and CSV route handlers and the command palette all read and write it through here.
import { z } from 'zod';
import {
  SORT_ORDERS,
  TRANSACTION_FILTER_TYPES,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
} from '@/lib/custody/schemas';

/** Rows per page the view offers; above 500 the console joins several upstream pages. */
export const TRANSACTION_PAGE_SIZES = [10, 25, 50, 100, 250, 500, 1000] as const;
export const DEFAULT_TRANSACTION_PAGE_SIZE = 50;
/** Largest `limit` sent upstream in one call (the sandbox caps at 500; the spec leaves the maximum open). */
export const UPSTREAM_MAX_PAGE_SIZE = 500;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX_HASH = /^(0x)?[0-9a-fA-F]{64}$/;

// An absent parameter and `?status=` mean the same: no filter.
const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

const uuid = z.string().regex(UUID, 'must be a UUID');
const symbols = z
  .string()
  .transform((raw) =>
    raw
      .split(',')
      .map((s) => s.trim().toUpperCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^[A-Z0-9.]{1,16}$/, 'must be asset symbols')).max(20));

/**
 * Each field of the URL. Strict: the route handlers answer 422 on a bad value. The page uses the same
 * shape leniently (`parseTransactionSearch`): a bad value falls back to its default, so an edited or
 * stale link still opens.
 */
export const transactionSearchShape = {
  status: optional(z.enum(TRANSACTION_STATUSES)),
  type: optional(z.enum(TRANSACTION_TYPES)),
  assets: z.preprocess(blankToUndefined, symbols.optional()).transform((v) => v ?? []),
  order: z.preprocess(blankToUndefined, z.enum(SORT_ORDERS).default('DESC')),
  id: optional(uuid),
  hash: optional(z.string().regex(/^[0-9A-Za-z]{16,128}$/, 'must be a transaction hash')),
  reference: optional(z.string().trim().min(1).max(200)),
  addressId: optional(uuid),
  page: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(1)),
  limit: z.preprocess(
    blankToUndefined,
    z.coerce
      .number()
      .int()
      .refine((n) => (TRANSACTION_PAGE_SIZES as readonly number[]).includes(n), {
        message: `must be one of ${TRANSACTION_PAGE_SIZES.join(', ')}`,
      })
      .default(DEFAULT_TRANSACTION_PAGE_SIZE),
  ),
  /** The transaction whose drawer is open. */
  open: optional(uuid),
};

const transactionSearchObject = z.object(transactionSearchShape);
export type TransactionSearch = z.output<typeof transactionSearchObject>;
/** Strict schema of the query (route handlers: `withPermission('read', handler, transactionSearchSchema)`). */
export const transactionSearchSchema = transactionSearchObject.transform((s) => normalizeScope(s));
/** What the server filters on: everything but the open drawer. Also the variable part of the query key. */
export type TransactionFilterState = Omit<TransactionSearch, 'open'>;

export const DEFAULT_TRANSACTION_SEARCH: TransactionSearch = transactionSearchObject.parse({});

type SearchInput = URLSearchParams | Record<string, string | string[] | undefined>;

function firstValue(input: SearchInput, key: string): string | undefined {
  if (input instanceof URLSearchParams) return input.get(key) ?? undefined;
  const value = input[key];
  return Array.isArray(value) ? value[0] : value;
}

/** Lenient read of the URL: every bad or unknown value falls back to its default, field by field. */
export function parseTransactionSearch(input: SearchInput): TransactionSearch {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(transactionSearchShape)) {
    const parsed = schema.safeParse(firstValue(input, key));
    out[key] = parsed.success ? parsed.data : DEFAULT_TRANSACTION_SEARCH[key as keyof TransactionSearch];
  }
  return normalizeScope(out as TransactionSearch);
}

/** Strict read for route handlers; the error lists each bad field. */
export function parseTransactionSearchStrict(
  input: SearchInput,
): { ok: true; data: TransactionSearch } | { ok: false; error: string } {
  const raw: Record<string, string | undefined> = {};
  for (const key of Object.keys(transactionSearchShape)) raw[key] = firstValue(input, key);
  const parsed = transactionSearchSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      error: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    };
  }
  return { ok: true, data: parsed.data };
}

// #3 (per address) filters by DEPOSIT, WITHDRAW and SALVAGE only and has no `reference`; rather than send
// a filter the endpoint refuses, drop it.
function normalizeScope(search: TransactionSearch): TransactionSearch {
  if (!search.addressId) return search;
  const typeAllowed =
    search.type === undefined || (TRANSACTION_FILTER_TYPES as readonly string[]).includes(search.type);
  return { ...search, type: typeAllowed ? search.type : undefined, reference: undefined };
}

/** Query string of a state, without defaults, in a stable key order (shareable, short). */
export function serializeTransactionSearch(search: Partial<TransactionSearch>): string {
  const params = new URLSearchParams();
  const full = { ...DEFAULT_TRANSACTION_SEARCH, ...search };
  for (const key of Object.keys(transactionSearchShape) as (keyof TransactionSearch)[]) {
    const value = full[key];
    const fallback = DEFAULT_TRANSACTION_SEARCH[key];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(key, value.join(','));
      continue;
    }
    if (value === fallback) continue;
    params.set(key, String(value));
  }
  return params.toString();
}

export function filtersOf(search: TransactionSearch): TransactionFilterState {
  const { open: _open, ...filters } = search;
  return filters;
}

/** True when anything narrows the list (the empty state then offers to reset). */
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
