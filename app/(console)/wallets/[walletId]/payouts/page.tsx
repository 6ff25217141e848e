import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PayoutForm } from '@/components/payouts/payout-form';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { getApprovalEngine, withdrawFormContext } from '@/lib/server/approvals';
import { describeFailure } from '@/lib/server/errors';
import { requirePage } from '@/lib/server/page-guard';

export const metadata: Metadata = { title: 'Payouts' };

export default async function PayoutsPage({ params }: { params: Promise<{ walletId: string }> }) {
  const actor = await requirePage('withdraw.request');
  const { walletId } = await params;
  let context: Awaited<ReturnType<typeof withdrawFormContext>>;
  try {
    context = await withdrawFormContext(walletId);
  } catch (error) {
    return (
      <Alert variant="destructive">
        <AlertTitle>Could not load the wallet</AlertTitle>
        <AlertDescription>{describeFailure(error, actor.requestId, 'payouts page').message}</AlertDescription>
      </Alert>
    );
  }
  if (!context) notFound();
  // What each spending limit leaves this person on this wallet, before a file is chosen.
  const limits = await (await getApprovalEngine()).remainingLimits(walletId, actor.id);
  return (
    <div className="grid gap-4">
      <div>
        <h2 className="text-xl font-semibold">Payouts</h2>
        <p className="text-sm text-muted-foreground">
          Upload a payout file: every row is checked, and the whole file becomes one request that another
          person approves once.
        </p>
      </div>
      <PayoutForm
        walletId={context.wallet.id}
        sources={context.sources.map((s) => ({ id: s.id, label: s.label }))}
        limits={limits}
      />
    </div>
  );
}
