// The audit log's filters as URL state, parsed once with nuqs: the page and the CSV export read them with
// the loader, the filter form writes them with `useQueryStates` on the same parsers.
import { createLoader, createParser, createSerializer, parseAsInteger } from 'nuqs/server';
import { hasControlCharacters } from './control-characters';

const MAX_TEXT = 200;

/** Free text, trimmed and capped; an empty value is no filter. */
const parseAsSearchText = createParser({
  parse: (value: string) => {
    const text = value.trim().slice(0, MAX_TEXT);
    return text && !hasControlCharacters(text) ? text : null;
  },
  serialize: (value: string) => value,
});

/** A calendar day, YYYY-MM-DD (UTC), as the date inputs give it. */
const parseAsDay = createParser({
  parse: (value: string) =>
    /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? value : null,
  serialize: (value: string) => value,
});

const auditFilterParsers = {
  q: parseAsSearchText,
  actor: parseAsSearchText,
  action: parseAsSearchText,
  from: parseAsDay,
  to: parseAsDay,
};

export const auditSearchParams = {
  ...auditFilterParsers,
  page: parseAsInteger.withDefault(1),
};

export const loadAuditSearchParams = createLoader(auditSearchParams);
export const serializeAuditFilters = createSerializer(auditFilterParsers);
export const serializeAuditSearch = createSerializer(auditSearchParams);

export type AuditSearch = Awaited<ReturnType<typeof loadAuditSearchParams>>;

/** The filters of a search, absent ones left out (what listAudit and the export take besides the page). */
export interface AuditFilter {
  q?: string;
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
}

/** The loader's nulls dropped, the page kept within range: what listAudit takes. */
export function auditFilterOf(search: AuditSearch): AuditFilter & { page: number } {
  const { page, ...rest } = search;
  const filter = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== null)) as AuditFilter;
  return { ...filter, page: Math.min(Math.max(1, page), 100_000) };
}
