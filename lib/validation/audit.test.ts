import { describe, expect, it } from 'vitest';
import {
  auditDayProblems,
  auditFilterOf,
  loadAuditSearchParams,
  serializeAuditFilters,
  serializeAuditSearch,
} from './audit';

describe('audit log URL state', () => {
  it('reads filters and page, and writes the same query string back', () => {
    const search = loadAuditSearchParams('?q=approval&actor=finance%40example.com&from=2026-01-02&page=3');
    expect(auditFilterOf(search)).toEqual({
      q: 'approval',
      actor: 'finance@example.com',
      from: '2026-01-02',
      page: 3,
    });
    const { page, ...filter } = auditFilterOf(search);
    expect(serializeAuditSearch('/audit', { ...filter, page })).toBe(
      '/audit?q=approval&actor=finance@example.com&from=2026-01-02&page=3',
    );
  });

  it('drops blank text, malformed days and keeps the page within range', () => {
    const search = loadAuditSearchParams({ q: '   ', action: 'x'.repeat(300), to: '2026-13-45', page: '0' });
    const { page, ...filter } = auditFilterOf(search);
    expect(filter).toEqual({ action: 'x'.repeat(200) });
    expect(page).toBe(1);
    expect(auditFilterOf(loadAuditSearchParams({ page: '9999999' })).page).toBe(100_000);
  });

  it('leaves the page out of the export link and the first page out of page links', () => {
    expect(serializeAuditFilters('/audit/export.csv', { q: 'sign in', actor: null })).toBe(
      '/audit/export.csv?q=sign+in',
    );
    expect(serializeAuditSearch('/audit', { q: 'x', page: 1 })).toBe('/audit?q=x');
  });
});

describe('auditDayProblems', () => {
  it('names a day the calendar does not have, and a reversed period, at its field', () => {
    expect(auditDayProblems(new URLSearchParams('from=2026-13-45'))).toEqual({
      from: 'The From date is not a day of the calendar: write it YYYY-MM-DD.',
    });
    expect(auditDayProblems({ from: '2026-01-01', to: '2026-02-29' })).toEqual({
      to: 'The To date is not a day of the calendar: write it YYYY-MM-DD.',
    });
    expect(auditDayProblems({ from: '2026-03-02', to: '2026-03-01' })).toEqual({
      to: 'The To date is before the From date.',
    });
  });

  it('takes good days and absent ones', () => {
    expect(auditDayProblems(new URLSearchParams('from=2028-02-29&to=2028-03-01'))).toEqual({});
    expect(auditDayProblems({ from: '', to: null })).toEqual({});
    expect(auditDayProblems(new URLSearchParams('q=x'))).toEqual({});
  });

  it('drops a day the calendar does not have from the loaded filter', () => {
    expect(auditFilterOf(loadAuditSearchParams({ from: '2026-02-30' }))).toEqual({ page: 1 });
  });
});
