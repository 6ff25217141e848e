import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { PageHeader } from '@/components/shell/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { listAudit } from '@/lib/server/audit';
import { requirePage } from '@/lib/server/page-guard';
import { getDb } from '@/lib/server/runtime';
import { VerifyChainButton } from './_components/verify-chain-button';

export const metadata: Metadata = { title: 'Audit log' };

const dateParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);
const filterSchema = z.object({
  actor: z.string().trim().max(200).optional().catch(undefined),
  action: z.string().trim().max(100).optional().catch(undefined),
  from: dateParam,
  to: dateParam,
  page: z.coerce.number().int().min(1).max(100_000).optional().catch(undefined),
});

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string>> }) {
  await requirePage('audit.view');
  const filter = filterSchema.parse(await searchParams);
  const clean = Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== ''));
  const { rows, total, page, pageSize } = await listAudit(await getDb(), clean);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const pageHref = (p: number) =>
    `/audit?${new URLSearchParams({ ...clean, page: String(p) } as Record<string, string>)}`;
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change and every revealed secret, hash-chained so tampering shows."
        actions={<VerifyChainButton />}
      />
      <form className="mb-4 flex flex-wrap items-end gap-3" method="get">
        <div className="grid gap-1">
          <Label htmlFor="actor">Actor email</Label>
          <Input id="actor" name="actor" defaultValue={filter.actor} className="w-56" />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="action">Action</Label>
          <Input
            id="action"
            name="action"
            defaultValue={filter.action}
            className="w-48"
            placeholder="e.g. user.add"
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="from">From</Label>
          <Input id="from" name="from" type="date" defaultValue={filter.from} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="to">To</Label>
          <Input id="to" name="to" type="date" defaultValue={filter.to} />
        </div>
        <Button type="submit" variant="secondary">
          Filter
        </Button>
        <Button asChild variant="ghost">
          <Link href="/audit">Clear</Link>
        </Button>
      </form>
      {rows.length === 0 ? (
        <p className="rounded-md border p-6 text-center text-muted-foreground">
          No entries match these filters.
        </p>
      ) : (
        <Table aria-label="Audit entries">
          <TableHeader>
            <TableRow>
              <TableHead>#</TableHead>
              <TableHead>Time (UTC)</TableHead>
              <TableHead>Actor</TableHead>
              <TableHead>Action</TableHead>
              <TableHead>Target</TableHead>
              <TableHead>Outcome</TableHead>
              <TableHead>Input</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.id}>
                <TableCell className="font-mono text-xs">{r.id}</TableCell>
                <TableCell className="whitespace-nowrap font-mono text-xs">
                  {r.at.replace('T', ' ').slice(0, 19)}
                </TableCell>
                <TableCell>
                  <div className="text-xs">{r.actorEmail}</div>
                  <div className="text-xs text-muted-foreground">{r.role}</div>
                </TableCell>
                <TableCell className="font-mono text-xs">{r.action}</TableCell>
                <TableCell className="max-w-48 truncate text-xs">{r.target}</TableCell>
                <TableCell>
                  <Badge
                    variant={
                      r.outcome === 'success' ? 'success' : r.outcome === 'denied' ? 'warning' : 'destructive'
                    }
                  >
                    {r.outcome}
                  </Badge>
                </TableCell>
                <TableCell className="max-w-64 truncate font-mono text-xs" title={JSON.stringify(r.input)}>
                  {Object.keys(r.input).length ? JSON.stringify(r.input) : '—'}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <nav aria-label="Pages" className="mt-4 flex items-center justify-between text-sm">
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
