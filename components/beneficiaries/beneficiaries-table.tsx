import { DeleteBeneficiaryButton } from '@/components/beneficiaries/delete-beneficiary-button';
import { Badge } from '@/components/ui/badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import type { Beneficiary } from '@/lib/custody/schemas';
import { formatDateTime } from '@/lib/format';

export interface BeneficiariesTableProps {
  walletId: string;
  items: Beneficiary[];
  /** Admins only: the service deletes at once, so the button asks first. */
  canDelete: boolean;
}

/** A wallet's saved payout destinations, as the custody service lists them. */
export function BeneficiariesTable({ walletId, items, canDelete }: BeneficiariesTableProps) {
  if (items.length === 0)
    return (
      <p className="rounded-md border p-6 text-center text-muted-foreground">
        This wallet has no beneficiaries.
      </p>
    );
  return (
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
        {items.map((b) => (
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
  );
}
