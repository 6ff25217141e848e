import type { Metadata } from 'next';
import Link from 'next/link';
import type { SearchParams } from 'nuqs/server';
import { PageHeader } from '@/components/shell/page-header';
import { ScrollTable } from '@/components/shell/scroll-table';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { auditInputPairs, describeAuditAction } from '@/lib/audit-actions';
import { listAudit } from '@/lib/server/audit';
import { requirePage } from '@/lib/server/page-guard';
import { getDb } from '@/lib/server/runtime';
import { AuditFilters } from './_components/audit-filters';
import { VerifyChainButton } from './_components/verify-chain-button';
import { auditFilterOf, loadAuditSearchParams, serializeAuditSearch } from './search-params';

export const metadata: Metadata = { title: 'Audit log' };

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePage('audit.view');
  const search = await loadAuditSearchParams(searchParams);
  const { page: requested, ...filter } = auditFilterOf(search);
  const { rows, total, page, pageSize } = await listAudit(await getDb(), { ...filter, page: requested });
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const pageHref = (p: number) => serializeAuditSearch('/audit', { ...filter, page: p });
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change and every revealed secret, hash-chained so tampering shows."
        actions={<VerifyChainButton />}
      />
      <AuditFilters />
      {rows.length === 0 ? (
        <p className="rounded-md border p-6 text-center text-muted-foreground">
          No entries match these filters.
        </p>
      ) : (
        <div className="rounded-md border">
          <ScrollTable aria-label="Audit entries" regionLabel="Audit entries table">
            <TableHeader>
              <TableRow>
                <TableHead scope="col">#</TableHead>
                <TableHead scope="col">Time (UTC)</TableHead>
                <TableHead scope="col">Actor</TableHead>
                <TableHead scope="col">Action</TableHead>
                <TableHead scope="col">Target</TableHead>
                <TableHead scope="col">Outcome</TableHead>
                <TableHead scope="col">Input</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((r) => {
                const words = describeAuditAction(r.action);
                const input = auditInputPairs(r.input);
                return (
                  <TableRow key={r.id} className="align-top">
                    <TableCell className="font-mono text-xs">{r.id}</TableCell>
                    <TableCell className="whitespace-nowrap font-mono text-xs">
                      {new Date(r.at).toISOString().replace('T', ' ').slice(0, 19)}
                    </TableCell>
                    <TableCell>
                      <div className="text-xs">{r.actorEmail}</div>
                      <div className="text-xs text-muted-foreground">{r.role}</div>
                    </TableCell>
                    <TableCell className="min-w-44">
                      <div className="text-sm">{words.label}</div>
                      <div className="font-mono text-xs text-muted-foreground">{r.action}</div>
                    </TableCell>
                    <TableCell className="max-w-56 break-all text-xs">{r.target ?? '—'}</TableCell>
                    <TableCell>
                      <Badge
                        variant={
                          r.outcome === 'success'
                            ? 'success'
                            : r.outcome === 'denied'
                              ? 'warning'
                              : 'destructive'
                        }
                      >
                        {r.outcome}
                      </Badge>
                    </TableCell>
                    <TableCell className="min-w-56 max-w-96">
                      {input.length === 0 ? (
                        <span className="text-muted-foreground">—</span>
                      ) : (
                        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
                          {input.map(([key, value]) => (
                            <div key={key} className="contents">
                              <dt className="text-muted-foreground">{key}</dt>
                              <dd className="break-all font-mono">{value}</dd>
                            </div>
                          ))}
                        </dl>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </ScrollTable>
        </div>
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
