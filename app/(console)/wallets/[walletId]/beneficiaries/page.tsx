import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { DeleteBeneficiaryButton } from '@/components/beneficiaries/delete-beneficiary-button';
import { PageHeader } from '@/components/shell/page-header';
import { Badge } from '@/components/ui/badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { NotOffered, ServiceError } from '@/components/wallets/service-error';
import { formatDateTime } from '@/lib/format';
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
  const canDelete = can(actor.role, 'beneficiary.delete');
  // The deleted list is the console's own audit log: it shows whatever the custody service answers.
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
      ) : list.data.items.length === 0 ? (
        <p className="rounded-md border p-6 text-center text-muted-foreground">
          This wallet has no beneficiaries.
        </p>
      ) : (
        <Table aria-label="Beneficiaries">
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Address</TableHead>
              <TableHead>Flags</TableHead>
              <TableHead>Settlement</TableHead>
              <TableHead>Added</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.data.items.map((b) => (
              <TableRow key={b.id}>
                <TableCell className="font-medium">{b.name}</TableCell>
                <TableCell className="font-mono text-xs">{b.address}</TableCell>
                <TableCell className="flex flex-wrap gap-1">
                  {b.isDefault ? <Badge variant="secondary">Default</Badge> : null}
                  {b.isWhitelisted ? <Badge variant="success">Whitelisted</Badge> : null}
                  {b.isSettlement ? <Badge variant="outline">Settlement</Badge> : null}
                  {!b.isActive ? <Badge variant="warning">Inactive</Badge> : null}
                </TableCell>
                <TableCell className="text-xs">{b.settlementFrequency ?? '—'}</TableCell>
                <TableCell className="whitespace-nowrap text-xs">{formatDateTime(b.createdAt)}</TableCell>
                <TableCell className="text-right">
                  {canDelete ? (
                    <DeleteBeneficiaryButton
                      walletId={walletId}
                      beneficiaryId={b.id}
                      name={b.name}
                      address={b.address}
                    />
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <section className="mt-8" aria-labelledby="deleted-heading">
        <h2 id="deleted-heading" className="mb-2 text-lg font-semibold">
          Deleted
        </h2>
        {deleted.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No beneficiary of this wallet was deleted from the console.
          </p>
        ) : (
          <ul className="grid gap-1 text-sm" aria-label="Deleted beneficiaries">
            {deleted.map((entry) => (
              <li key={entry.id}>
                <span className="font-medium">{String(entry.input.name ?? entry.target)}</span>{' '}
                <span className="font-mono text-xs">{String(entry.input.address ?? '')}</span> · deleted{' '}
                {formatDateTime(String(entry.input.deletedAt ?? entry.at))} by {entry.actorEmail}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
