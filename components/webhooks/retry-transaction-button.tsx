'use client';
// Retry of a FAILED transaction (#1), for finance and admin. The server checks the status again.
import { useQueryClient } from '@tanstack/react-query';
import { RotateCcw } from 'lucide-react';
import { useState, useTransition } from 'react';
import { toast } from 'sonner';
import { retryTransactionAction } from '@/app/(console)/wallets/[walletId]/_actions/retry-transaction';
import { Button, type ButtonProps } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { transactionKeys, walletKeys, webhookKeys } from '@/lib/query-keys';

export interface RetryTransactionButtonProps {
  walletId: string;
  transaction: { id: string; reference?: string | null; status: string; type?: string | null };
  size?: ButtonProps['size'];
  onRetried?: () => void;
}

/** Renders nothing unless the transaction is FAILED; show it only to roles with `transaction.retry`. */
export function RetryTransactionButton({
  walletId,
  transaction,
  size = 'sm',
  onRetried,
}: RetryTransactionButtonProps) {
  const [open, setOpen] = useState(false);
  const [pending, startTransition] = useTransition();
  const queryClient = useQueryClient();
  if (transaction.status !== 'FAILED') return null;

  const confirm = () =>
    startTransition(async () => {
      const result = await retryTransactionAction({ walletId, transactionId: transaction.id });
      if (result.ok) {
        toast.success('Transaction retried', {
          description: `Now ${result.data.status}. Reference ${result.data.reference}.`,
        });
        setOpen(false);
        for (const queryKey of [
          transactionKeys.all(walletId),
          transactionKeys.detail(walletId, transaction.id),
          webhookKeys.all(walletId),
          walletKeys.detail(walletId),
        ]) {
          void queryClient.invalidateQueries({ queryKey });
        }
        onRetried?.();
      } else {
        toast.error('Retry refused', { description: result.error });
      }
    });

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size={size}>
          <RotateCcw aria-hidden />
          Retry transaction
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Retry this transaction?</DialogTitle>
          <DialogDescription>
            The custody service submits the failed {transaction.type?.toLowerCase() ?? 'transaction'}{' '}
            {transaction.reference ? `(reference ${transaction.reference}) ` : ''}again. It goes back to
            PENDING and settles or fails again on chain.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={pending}>
              Cancel
            </Button>
          </DialogClose>
          <Button onClick={confirm} disabled={pending}>
            {pending ? 'Retrying…' : 'Retry'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
