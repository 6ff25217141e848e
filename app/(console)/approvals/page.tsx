import type { Metadata } from 'next';
import { PageHeader } from '@/components/shell/page-header';
import { requirePage } from '@/lib/server/page-guard';

export const metadata: Metadata = { title: 'Approvals' };

export default async function ApprovalsPage() {
  await requirePage('withdraw.approve');
  return (
    <>
      <PageHeader title="Approvals" description="Requests waiting for a second person." />
      <p className="rounded-md border p-6 text-center text-muted-foreground">
        Nothing is waiting for your approval.
      </p>
    </>
  );
}
