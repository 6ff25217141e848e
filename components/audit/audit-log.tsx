'use client';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '@/components/data-table/data-table';
import { createDataTableColumnHelper, type DataTableFeatures } from '@/components/data-table/features';
import { useDataTable } from '@/components/data-table/use-data-table';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { type AuditFilter, serializeAuditSearch } from '@/lib/validation/audit';
import type { AuditEntryDto } from './audit-entry';

const helper = createDataTableColumnHelper<AuditEntryDto>();

const OUTCOME_VARIANT = { success: 'success', denied: 'warning' } as const;

// Entries read top-aligned: the input column can run to several lines.
const AUDIT_COLUMNS = helper.columns([
  helper.display({
    id: 'id',
    header: '#',
    meta: { label: '#', className: 'align-top font-mono text-xs' },
    cell: ({ row }) => row.original.id,
  }),
  helper.display({
    id: 'time',
    header: 'Time (UTC)',
    meta: { label: 'Time (UTC)', className: 'align-top whitespace-nowrap font-mono text-xs' },
    cell: ({ row }) => row.original.time,
  }),
  helper.display({
    id: 'actor',
    header: 'Actor',
    meta: { label: 'Actor', className: 'align-top' },
    cell: ({ row }) => (
      <>
        <div className="text-xs">{row.original.actorEmail}</div>
        <div className="text-xs text-muted-foreground">{row.original.role}</div>
      </>
    ),
  }),
  helper.display({
    id: 'action',
    header: 'Action',
    meta: { label: 'Action', className: 'align-top min-w-44' },
    cell: ({ row }) => (
      <>
        <div className="text-sm">{row.original.label}</div>
        <div className="font-mono text-xs text-muted-foreground">{row.original.action}</div>
      </>
    ),
  }),
  helper.display({
    id: 'target',
    header: 'Target',
    meta: { label: 'Target', className: 'align-top min-w-40 max-w-56 break-all text-xs' },
    cell: ({ row }) => row.original.target ?? '—',
  }),
  helper.display({
    id: 'outcome',
    header: 'Outcome',
    meta: { label: 'Outcome', className: 'align-top' },
    cell: ({ row }) => {
      const outcome = row.original.outcome;
      const variant = OUTCOME_VARIANT[outcome as keyof typeof OUTCOME_VARIANT] ?? 'destructive';
      return <Badge variant={variant}>{outcome}</Badge>;
    },
  }),
  helper.display({
    id: 'input',
    header: 'Input',
    meta: { label: 'Input', className: 'align-top min-w-56 max-w-96' },
    cell: ({ row }) =>
      row.original.input.length === 0 ? (
        <span className="text-muted-foreground">—</span>
      ) : (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
          {row.original.input.map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="text-muted-foreground">{key}</dt>
              <dd className="break-all font-mono">{value}</dd>
            </div>
          ))}
        </dl>
      ),
  }),
]) as ColumnDef<DataTableFeatures, AuditEntryDto, unknown>[];

export interface AuditLogProps {
  entries: AuditEntryDto[];
  total: number;
  page: number;
  pageSize: number;
  /** The filters the entries match, kept by the page links. */
  filter: AuditFilter;
}

/** One page of the audit log, newest first; the page links keep the filters (the URL is the state). */
export function AuditLog({ entries, total, page, pageSize, filter }: AuditLogProps) {
  const table = useDataTable({ data: entries, columns: AUDIT_COLUMNS, getRowId: (e) => String(e.id) });
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const pageHref = (p: number) => serializeAuditSearch('/audit', { ...filter, page: p });
  return (
    <>
      {entries.length === 0 ? (
        <p className="rounded-md border p-6 text-center text-muted-foreground">
          No entries match these filters.
        </p>
      ) : (
        <DataTable table={table} label="Audit entries" scrollRegionLabel="Audit entries table" />
      )}
      <nav aria-label="Pages" className="mt-4 flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className="text-muted-foreground">
          {total} entries · page {page} of {pages}
        </span>
        <div className="flex gap-2">
          {page > 1 ? (
            <Button asChild variant="outline" size="sm">
              <Link href={pageHref(page - 1)}>Previous</Link>
            </Button>
          ) : null}
          {page < pages ? (
            <Button asChild variant="outline" size="sm">
              <Link href={pageHref(page + 1)}>Next</Link>
            </Button>
          ) : null}
        </div>
      </nav>
    </>
  );
}
