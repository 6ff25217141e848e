import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { BeneficiariesTable } from '@/components/beneficiaries/beneficiaries-table';
import { DeletedBeneficiaries } from '@/components/beneficiaries/deleted-beneficiaries';
import { PageHeader } from '@/components/shell/page-header';
import { NotOffered, ServiceError } from '@/components/wallets/service-error';
import { auditEntriesWith } from '@/lib/server/audit';
import { requirePage } from '@/lib/server/page-guard';
import { can } from '@/lib/server/permissions';
import { getDb } from '@/lib/server/runtime';
import { loadBeneficiaries } from '@/lib/server/wallet-views';
import { findWalletConnection } from '@/lib/server/wallets';

export const metadata: Metadata = { title: 'Beneficiaries' };

export default async function BeneficiariesPage({ params }: { params: Promise<{ walletId: string }> }) {
  const actor = await requirePage('read');
  const { walletId } = await params;
  if (!(await findWalletConnection(walletId))) notFound();
  // A deletion is a request a second admin approves.
  const canDelete = can(actor.role, 'beneficiaryDelete.request');
  // The deleted list is the console's own audit log: it shows whatever the custody service answered.
  const [list, deleted] = await Promise.all([
    loadBeneficiaries(walletId, actor.requestId),
    auditEntriesWith(await getDb(), 'beneficiary.delete', 'walletId', walletId),
  ]);
  return (
    <>
      <PageHeader title="Beneficiaries" description="Saved payout destinations of this wallet." />
      {!list.ok ? (
        <ServiceError title="Could not read the beneficiaries" message={list.error} />
      ) : !list.data.listed ? (
        <NotOffered>
          This custody service does not list beneficiaries; deleted ones are still shown from the audit log.
        </NotOffered>
      ) : (
        <BeneficiariesTable walletId={walletId} items={list.data.items} canDelete={canDelete} />
      )}
      <DeletedBeneficiaries
        entries={deleted.map((entry) => ({
          id: entry.id,
          name: String(entry.input.name ?? entry.target),
          address: String(entry.input.address ?? ''),
          deletedAt: String(entry.input.deletedAt ?? entry.at),
          // Made by the console once approved: the entry names who asked for it.
          deletedBy: typeof entry.input.requestedBy === 'string' ? entry.input.requestedBy : entry.actorEmail,
        }))}
      />
    </>
  );
}
