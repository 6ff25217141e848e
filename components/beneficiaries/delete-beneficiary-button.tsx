'use client';
import { Trash2Icon } from 'lucide-react';
import { RequestChangeDialog } from '@/components/operations/request-change-dialog';
import { Button } from '@/components/ui/button';
import { deleteBeneficiaryAction } from '@/lib/actions/beneficiaries';

/** Asks to delete a beneficiary, after a confirmation naming it; a second admin approves. */
export function DeleteBeneficiaryButton({
  walletId,
  beneficiaryId,
  name,
  address,
}: {
  walletId: string;
  beneficiaryId: string;
  name: string;
  address: string;
}) {
  return (
    <RequestChangeDialog
      trigger={
        <Button variant="destructive" size="sm" aria-label={`Delete beneficiary ${name}`}>
          <Trash2Icon aria-hidden />
          Delete
        </Button>
      }
      title={`Delete beneficiary ${name}?`}
      description={
        <>
          <span className="break-all font-mono">{address}</span> will no longer be offered as a payout
          destination. This cannot be undone from the console. A second admin approves the deletion before it
          is made.
        </>
      }
      confirmLabel="Request removal"
      destructive
      request={() => deleteBeneficiaryAction({ walletId, beneficiaryId })}
    />
  );
}
