'use client';
// Requests a retry of a FAILED transaction (#1), for finance and admin: an approval request, sent only after
// another person approves. The server checks the status again.
import { useQueryClient } from '@tanstack/react-query';
import { RotateCcw } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { retryTransactionAction } from '@/lib/actions/transactions';

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
  // Shown inside the dialog: a toast would sit behind its overlay.
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const router = useRouter();
  // The service retries failed outgoing transactions; a deposit is the sender's to send again.
  if (transaction.status !== 'FAILED' || transaction.type === 'DEPOSIT') return null;

  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size={size}>
          <RotateCcw aria-hidden />
          Retry transaction
        </Button>
      }
      title="Retry this transaction?"
      description={
        <>
          This requests a retry of the failed {transaction.type?.toLowerCase() ?? 'transaction'}{' '}
          {transaction.reference ? `(reference ${transaction.reference}) ` : ''}. Retrying moves money again,
          so another person approves it first; then the custody service submits it once more.
        </>
      }
      confirmLabel="Request retry"
      error={error ? `Retry refused: ${error}` : null}
      onOpenChange={() => setError(null)}
      onConfirm={async () => {
        setError(null);
        const result = await retryTransactionAction({ walletId, transactionId: transaction.id });
        if (!result.ok) {
          setError(result.error);
          return false;
        }
        toast.success('Retry requested', {
          description: 'Another person must approve it before it is sent.',
        });
        router.push(`/approvals/${result.data.id}`);
        void queryClient.invalidateQueries({ queryKey: ['approvals'] });
        onRetried?.();
        return true;
      }}
    />
  );
}
