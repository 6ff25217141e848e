import type { Metadata } from 'next';
import type { SearchParams } from 'nuqs/server';
import { toAuditEntryDto } from '@/components/audit/audit-entry';
import { AuditFilters } from '@/components/audit/audit-filters';
import { AuditLog } from '@/components/audit/audit-log';
import { VerifyChainButton } from '@/components/audit/verify-chain-button';
import { PageHeader } from '@/components/shell/page-header';
import { listAudit } from '@/lib/server/audit';
import { requirePage } from '@/lib/server/page-guard';
import { getDb } from '@/lib/server/runtime';
import { auditDayProblems, auditFilterOf, loadAuditSearchParams } from '@/lib/validation/audit';

export const metadata: Metadata = { title: 'Audit log' };

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePage('audit.view');
  const params = await searchParams;
  const { page: requested, ...filter } = auditFilterOf(await loadAuditSearchParams(params));
  const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;
  const dayErrors = auditDayProblems({ from: one(params.from), to: one(params.to) });
  const { rows, total, page, pageSize } = await listAudit(await getDb(), { ...filter, page: requested });
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change and every revealed secret, hash-chained so tampering shows."
        actions={<VerifyChainButton />}
      />
      <AuditFilters errors={dayErrors} />
      <AuditLog
        entries={rows.map(toAuditEntryDto)}
        total={total}
        page={page}
        pageSize={pageSize}
        filter={filter}
      />
    </>
  );
}
