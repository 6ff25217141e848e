import { describe, expect, it } from 'vitest';
import { auditFilterOf, loadAuditSearchParams, serializeAuditFilters, serializeAuditSearch } from './audit';

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
