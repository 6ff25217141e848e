// The audit log's filters as URL state, parsed once with nuqs: the page and the CSV export read them with
// the loader, the filter form writes them with `useQueryStates` on the same parsers.
import { createLoader, createParser, createSerializer, parseAsInteger } from 'nuqs/server';
import { isCalendarDay } from './calendar-day';
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
  parse: (value: string) => (isCalendarDay(value) ? value : null),
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

export type AuditDayField = 'from' | 'to';

/**
 * What is wrong with the days a search names, by field: a day the calendar does not have, or a period that ends
 * before it starts. The loader drops a bad day (the page still lists); the export and the filter form say so,
 * since a dropped day would silently widen the search to every entry.
 */
export function auditDayProblems(
  input: URLSearchParams | Partial<Record<AuditDayField, string | null>>,
): Partial<Record<AuditDayField, string>> {
  const read = (key: AuditDayField) =>
    (input instanceof URLSearchParams ? input.get(key) : input[key])?.trim() ?? '';
  const from = read('from');
  const to = read('to');
  const problems: Partial<Record<AuditDayField, string>> = {};
  if (from && !isCalendarDay(from))
    problems.from = 'The From date is not a day of the calendar: write it YYYY-MM-DD.';
  if (to && !isCalendarDay(to))
    problems.to = 'The To date is not a day of the calendar: write it YYYY-MM-DD.';
  if (!problems.from && !problems.to && from && to && from > to)
    problems.to = 'The To date is before the From date.';
  return problems;
}
