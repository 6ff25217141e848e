'use client';
import { KeyRoundIcon } from 'lucide-react';
import { RequestChangeDialog } from '@/components/operations/request-change-dialog';
import { Button } from '@/components/ui/button';
import { requestPrivateKeyRevealAction } from '@/lib/actions/addresses';
import { PRIVATE_KEY_REVEAL_MINUTES } from '@/lib/approvals/configuration';

export interface AskPrivateKeyButtonProps {
  walletId: string;
  addressId: string;
  addressName: string;
}

/**
 * Asks to see an address's private key: a second admin approves, then the asker sees it once on the request's page.
 * Whoever holds the key moves the address's funds without the console, so no one person may take it.
 */
export function AskPrivateKeyButton({ walletId, addressId, addressName }: AskPrivateKeyButtonProps) {
  return (
    <RequestChangeDialog
      trigger={
        <Button variant="destructive">
          <KeyRoundIcon aria-hidden />
          Reveal private key
        </Button>
      }
      title="Ask to see the private key?"
      description={
        <>
          Whoever holds the private key of {addressName} can move its funds without the console, its approvals
          or its limits. A second admin approves first; then you see the key once on the request’s page,
          within {PRIVATE_KEY_REVEAL_MINUTES} minutes, after re-entering your password. Both steps are in the
          audit log.
        </>
      }
      confirmLabel="Ask to see it"
      destructive
      request={() => requestPrivateKeyRevealAction({ walletId, addressId })}
    />
  );
}
