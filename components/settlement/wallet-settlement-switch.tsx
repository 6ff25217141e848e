'use client';
import { RequestChangeDialog } from '@/components/operations/request-change-dialog';
import { Button } from '@/components/ui/button';
import { setWalletSettlementAction } from '@/lib/actions/settlement';

/** Asks to switch the wallet's auto-settlement on or off: a second admin approves before it changes. */
export function WalletSettlementSwitch({
  walletId,
  walletName,
  isActive,
}: {
  walletId: string;
  walletName: string;
  isActive: boolean;
}) {
  const next = !isActive;
  const verb = next ? 'Enable' : 'Disable';
  return (
    <RequestChangeDialog
      trigger={<Button variant={next ? 'default' : 'outline'}>{verb} auto-settlement</Button>}
      title={`${verb} auto-settlement for ${walletName}?`}
      description={
        <>
          {next
            ? 'Deposits that match the wallet-level rules will be settled automatically again.'
            : 'Deposits will stay in the wallet until auto-settlement is enabled again. Address rules are not affected.'}{' '}
          A second admin approves the change before it is made.
        </>
      }
      confirmLabel="Request change"
      destructive={!next}
      request={() => setWalletSettlementAction({ walletId, isActive: next })}
    />
  );
}
