'use client';
// Requests a retry of a FAILED transaction (#1), for finance and admin: an approval request, sent only after
// another person approves. The server checks the status again.
import { useQueryClient } from '@tanstack/react-query';
import { RotateCcw } from 'lucide-react';
import { useRouter } from 'next/navigation';
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
  // Shown inside the dialog: a toast would sit behind its overlay.
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const queryClient = useQueryClient();
  const router = useRouter();
  // The service retries failed outgoing transactions; a deposit is the sender's to send again.
  if (transaction.status !== 'FAILED' || transaction.type === 'DEPOSIT') return null;

  const confirm = () =>
    startTransition(async () => {
      setError(null);
      const result = await retryTransactionAction({ walletId, transactionId: transaction.id });
      if (result.ok) {
        toast.success('Retry requested', {
          description: 'Another person must approve it before it is sent.',
        });
        setOpen(false);
        router.push(`/approvals/${result.data.id}`);
        void queryClient.invalidateQueries({ queryKey: ['approvals'] });
        onRetried?.();
      } else {
        setError(result.error);
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
            This requests a retry of the failed {transaction.type?.toLowerCase() ?? 'transaction'}{' '}
            {transaction.reference ? `(reference ${transaction.reference}) ` : ''}. Retrying moves money
            again, so another person approves it first; then the custody service submits it once more.
          </DialogDescription>
        </DialogHeader>
        {error ? (
          <p role="alert" className="text-sm text-destructive">
            Retry refused: {error}
          </p>
        ) : null}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={pending}>
              Cancel
            </Button>
          </DialogClose>
          <Button onClick={confirm} disabled={pending}>
            {pending ? 'Requesting…' : 'Request retry'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
