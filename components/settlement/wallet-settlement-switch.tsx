'use client';
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { setWalletSettlementAction } from '@/lib/actions/settlement';

export function WalletSettlementSwitch({
  walletId,
  walletName,
  isActive,
}: {
  walletId: string;
  walletName: string;
  isActive: boolean;
}) {
  const router = useRouter();
  const next = !isActive;
  const verb = next ? 'Enable' : 'Disable';
  return (
    <ConfirmDialog
      trigger={<Button variant={next ? 'default' : 'outline'}>{verb} auto-settlement</Button>}
      title={`${verb} auto-settlement for ${walletName}?`}
      description={
        next
          ? 'Deposits that match the wallet-level rules will be settled automatically again.'
          : 'Deposits will stay in the wallet until auto-settlement is enabled again. Address rules are not affected.'
      }
      confirmLabel={verb}
      destructive={!next}
      onConfirm={async () => {
        const result = await setWalletSettlementAction({ walletId, isActive: next });
        if (!result.ok) {
          toast.error(result.error);
          return false;
        }
        toast.success(`Auto-settlement ${result.data.isActive ? 'enabled' : 'disabled'} for ${walletName}`);
        router.refresh();
        return true;
      }}
    />
  );
}
