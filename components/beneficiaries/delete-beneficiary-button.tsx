'use client';
import { Trash2Icon } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { deleteBeneficiaryAction } from '@/lib/actions/beneficiaries';

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
  const router = useRouter();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="destructive" size="sm" aria-label={`Delete beneficiary ${name}`}>
          <Trash2Icon aria-hidden />
          Delete
        </Button>
      }
      title={`Delete beneficiary ${name}?`}
      description={
        <>
          <span className="font-mono">{address}</span> will no longer be offered as a payout destination. This
          cannot be undone from the console.
        </>
      }
      confirmLabel={`Delete ${name}`}
      destructive
      onConfirm={async () => {
        const result = await deleteBeneficiaryAction({ walletId, beneficiaryId });
        if (!result.ok) {
          toast.error(result.error);
          return false;
        }
        toast.success(`Beneficiary ${name} deleted`);
        router.refresh();
        return true;
      }}
    />
  );
}
