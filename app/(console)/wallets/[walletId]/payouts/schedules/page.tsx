import type { Metadata } from 'next';
import { PayoutScheduleForm } from '@/components/payouts/payout-schedule-form';
import { PayoutSchedulesTable } from '@/components/payouts/payout-schedules-table';
import { SchedulesAwaitingApproval } from '@/components/payouts/schedules-awaiting-approval';
import { PageHeader } from '@/components/shell/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { withdrawFormContext } from '@/lib/server/approvals';
import { describeFailure } from '@/lib/server/errors';
import { requirePage } from '@/lib/server/page-guard';
import { listPayoutSchedules, listSchedulesAwaitingApproval } from '@/lib/server/payout-schedules';
import { can } from '@/lib/server/permissions';
import { getDb } from '@/lib/server/runtime';

export const metadata: Metadata = { title: 'Payout schedules' };

/** The form's choices (sources and asset symbols) from the custody service, or why they could not be read. */
async function formChoices(walletId: string, requestId: string | null) {
  try {
    const context = await withdrawFormContext(walletId);
    if (!context) return { ok: false as const, error: 'This wallet is not connected to the console.' };
    return {
      ok: true as const,
      sources: context.sources.map((s) => ({ id: s.id, label: s.label })),
      assets: context.assets.map((a) => a.symbol),
    };
  } catch (error) {
    return { ok: false as const, error: describeFailure(error, requestId, 'payout schedules page').message };
  }
}

export default async function PayoutSchedulesPage({ params }: { params: Promise<{ walletId: string }> }) {
  const actor = await requirePage('read');
  const { walletId } = await params;
  const canRequest = can(actor.role, 'payoutSchedule.request');
  const db = await getDb();
  const [schedules, awaiting, choices] = await Promise.all([
    listPayoutSchedules(db, walletId),
    listSchedulesAwaitingApproval(db, walletId),
    canRequest ? formChoices(walletId, actor.requestId) : null,
  ]);
  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader
        title="Payout schedules"
        description="The same recipients paid daily, weekly, monthly or once on a date, at a time in UTC. A schedule is approved once by another person; each run then creates a payout request that is approved like any other, within the spending limits and the freeze."
      />
      {awaiting.length > 0 ? <SchedulesAwaitingApproval awaiting={awaiting} /> : null}
      <PayoutSchedulesTable schedules={schedules} canChange={canRequest} />
      {choices ? (
        <section aria-labelledby="new-schedule-heading" className="grid min-w-0 gap-3">
          <h2 id="new-schedule-heading" className="text-lg font-semibold">
            New schedule
          </h2>
          {choices.ok ? (
            <PayoutScheduleForm walletId={walletId} sources={choices.sources} assets={choices.assets} />
          ) : (
            <Alert variant="destructive">
              <AlertTitle>Could not load the wallet</AlertTitle>
              <AlertDescription>{choices.error}</AlertDescription>
            </Alert>
          )}
        </section>
      ) : null}
    </div>
  );
}
