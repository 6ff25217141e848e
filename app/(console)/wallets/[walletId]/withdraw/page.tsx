import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ServiceError } from '@/components/wallets/service-error';
import { WithdrawForm } from '@/components/withdrawals/withdraw-form';
import { bookOptions, consolePaidAddresses } from '@/lib/server/address-book';
import { getApprovalEngine, withdrawFormContext } from '@/lib/server/approvals';
import { describeFailure } from '@/lib/server/errors';
import { requirePage } from '@/lib/server/page-guard';
import { can } from '@/lib/server/permissions';
import { getDb } from '@/lib/server/runtime';

export const metadata: Metadata = { title: 'Withdraw' };

/** How many of the console's past withdrawals the form reads for their recipients. */
const PAST_REQUESTS_SHOWN = 200;

export default async function WithdrawPage({ params }: { params: Promise<{ walletId: string }> }) {
  const actor = await requirePage('withdraw.request');
  const { walletId } = await params;
  let context: Awaited<ReturnType<typeof withdrawFormContext>>;
  // The picker is a convenience: without the book the form still takes an address typed by hand.
  const book = getDb()
    .then((db) => bookOptions(db, walletId, actor.requestId))
    .catch(() => []);
  // Past counterparties too: the form flags a recipient imitating one (the review checks the service's list).
  const paidBefore = getDb()
    .then((db) => consolePaidAddresses(db, walletId, PAST_REQUESTS_SHOWN))
    .catch(() => []);
  try {
    context = await withdrawFormContext(walletId);
  } catch (error) {
    return (
      <ServiceError
        title="Could not load the wallet"
        message={describeFailure(error, actor.requestId, 'withdraw page').message}
      />
    );
  }
  if (!context) notFound();
  // What each spending limit leaves this person on this wallet, before an amount is typed.
  const limits = await (await getApprovalEngine()).remainingLimits(walletId, actor.id);
  return (
    <div className="grid gap-4">
      <div>
        <h2 className="text-xl font-semibold">Withdraw</h2>
        <p className="text-sm text-muted-foreground">
          Nothing is sent when you submit: the request waits for another person&apos;s approval.
        </p>
      </div>
      <WithdrawForm
        context={context}
        limits={limits}
        canSign={can(actor.role, 'withdrawSign.request')}
        book={await book}
        paidBefore={await paidBefore}
      />
    </div>
  );
}
