import type { Metadata } from 'next';
import { ApprovalsQueue } from '@/components/approvals/approvals-queue';
import { NotificationsList } from '@/components/approvals/notifications-list';
import { PageHeader } from '@/components/shell/page-header';
import { loadApprovalsSearchParams } from '@/lib/approvals/search-params';
import { getApprovalEngine } from '@/lib/server/approvals';
import { toSummaryDto } from '@/lib/server/approvals/dto';
import { requirePage } from '@/lib/server/page-guard';

export const metadata: Metadata = { title: 'Approvals' };

export default async function ApprovalsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const actor = await requirePage('withdraw.approve');
  const { scope } = await loadApprovalsSearchParams(searchParams);
  const engine = await getApprovalEngine();
  const [rows, notifications] = await Promise.all([
    engine.list(actor, scope),
    engine.listNotifications(actor.id),
  ]);
  return (
    <>
      <PageHeader
        title="Approvals"
        description="Money-moving requests: nothing is sent until another person has approved it."
      />
      <div className="grid gap-6">
        <ApprovalsQueue scope={scope} initial={rows.map((r) => toSummaryDto(r.request, r.approvals))} />
        <NotificationsList
          initial={notifications.map((n) => ({
            id: n.id,
            requestId: n.requestId,
            message: n.message,
            read: n.readAt !== null,
            createdAt: n.createdAt.toISOString(),
          }))}
        />
      </div>
    </>
  );
}
