'use client';
import { Trash2Icon } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { removeWhitelistedAddressAction } from '@/lib/actions/whitelist';

export interface RemoveWhitelistedButtonProps {
  walletId: string;
  addressId: string;
  name: string;
  address: string;
}

/** Removes a whitelisted address after a confirmation naming it. */
export function RemoveWhitelistedButton({
  walletId,
  addressId,
  name,
  address,
}: RemoveWhitelistedButtonProps) {
  const router = useRouter();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="destructive">
          <Trash2Icon aria-hidden />
          Remove from whitelist
        </Button>
      }
      title={`Remove ${name} from the whitelist?`}
      description={
        <>
          <span className="break-all font-mono">{address}</span> will no longer count as a whitelisted
          address: withdrawals to it are flagged as going outside the whitelist. Whitelisting it again brings
          it back.
        </>
      }
      confirmLabel="Remove from whitelist"
      destructive
      onConfirm={async () => {
        const result = await removeWhitelistedAddressAction({ walletId, addressId });
        if (!result.ok) {
          toast.error(result.error);
          return false;
        }
        toast.success(`${name} removed from the whitelist`);
        router.refresh();
        return true;
      }}
    />
  );
}
