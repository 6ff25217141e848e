'use client';
import { Trash2Icon } from 'lucide-react';
import { RequestChangeDialog } from '@/components/operations/request-change-dialog';
import { Button } from '@/components/ui/button';
import { removeWhitelistedAddressAction } from '@/lib/actions/whitelist';

export interface RemoveWhitelistedButtonProps {
  walletId: string;
  addressId: string;
  name: string;
  address: string;
}

/** Asks to remove a whitelisted address, after a confirmation naming it; a second admin approves. */
export function RemoveWhitelistedButton({
  walletId,
  addressId,
  name,
  address,
}: RemoveWhitelistedButtonProps) {
  return (
    <RequestChangeDialog
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
          it back. A second admin approves the removal before it is made.
        </>
      }
      confirmLabel="Request removal"
      destructive
      request={() => removeWhitelistedAddressAction({ walletId, addressId })}
    />
  );
}
