import 'server-only';
// Every paged list: `page` and `limit` from the query, one window of rows, the envelope's meta.
import { count, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { AnyDb } from '@/lib/db/types';
import { invalid } from '../context';
import type { PageMeta, Result } from './endpoint';

const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 500;

export function paging(query: URLSearchParams) {
  const read = (name: string, fallback: number, max: number) => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw invalid(`${name} must be a positive whole number`);
    return Math.min(Number(raw), max);
  };
  const page = read('page', 1, Number.MAX_SAFE_INTEGER);
  const limit = read('limit', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  return { page, limit, offset: (page - 1) * limit };
}

export function pageMeta(total: number, page: number, limit: number, itemCount: number): PageMeta {
  return {
    currentPage: page,
    itemCount,
    itemsPerPage: limit,
    totalItems: total,
    totalPages: Math.ceil(total / limit),
  };
}

/** `order` of a list: ASC or DESC, DESC when absent. */
export function orderOf(query: URLSearchParams): 'ASC' | 'DESC' {
  const raw = query.get('order');
  if (raw === null || raw === '') return 'DESC';
  const upper = raw.toUpperCase();
  if (upper !== 'ASC' && upper !== 'DESC') throw invalid('order must be ASC or DESC');
  return upper;
}

export interface PageWindow {
  limit: number;
  offset: number;
}

export interface Page<R> {
  rows: R[];
  total: number;
}

/**
 * A paged list: reads `page` and `limit` first (a bad value is 422 before anything else), then loads one
 * window of rows with the total, and answers them with the page meta.
 */
export async function pagedList<R>(
  query: URLSearchParams,
  message: string,
  load: (window: PageWindow) => Page<R> | Promise<Page<R>>,
  toApi: (row: R) => unknown,
): Promise<Result> {
  const { page, limit, offset } = paging(query);
  const { rows, total } = await load({ limit, offset });
  return { data: rows.map(toApi), message, meta: pageMeta(total, page, limit, rows.length) };
}

/** One window of rows held in memory. */
export function slicePage<R>(rows: R[], { limit, offset }: PageWindow): Page<R> {
  return { rows: rows.slice(offset, offset + limit), total: rows.length };
}

/** One window of a table's rows and the count of all rows matching `where`. */
export async function selectPage<T extends PgTable>(
  db: AnyDb,
  table: T,
  where: SQL | undefined,
  orderBy: SQL[],
  { limit, offset }: PageWindow,
): Promise<Page<T['$inferSelect']>> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(table as PgTable)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset),
    db
      .select({ n: count() })
      .from(table as PgTable)
      .where(where),
  ]);
  return { rows: rows as T['$inferSelect'][], total: total?.n ?? 0 };
}
