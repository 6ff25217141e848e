'use client';
// Resend of one transaction's webhook (#2), for support and admin; the log then shows it as a new send.
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { resendWebhookAction } from '@/lib/actions/webhooks';
import { webhookKeys } from '@/lib/query-keys';

/**
 * The service delivers a resend after answering, so the new send shows up a moment later (and a busy
 * service takes longer): refresh the log a few times, backing off (live events also refresh it, but an
 * unchanged payload is a duplicate the bus skips).
 */
export function refreshDeliveriesSoon(queryClient: QueryClient, walletId: string) {
  for (const delay of [0, 1000, 2500, 5000, 10_000, 20_000]) {
    setTimeout(() => void queryClient.invalidateQueries({ queryKey: webhookKeys.all(walletId) }), delay);
  }
}

export interface ResendWebhookButtonProps {
  walletId: string;
  transactionId: string;
  event: string;
  url: string;
  size?: ButtonProps['size'];
  onResent?: () => void;
}

export function ResendWebhookButton({
  walletId,
  transactionId,
  event,
  url,
  size = 'sm',
  onResent,
}: ResendWebhookButtonProps) {
  const queryClient = useQueryClient();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size={size}>
          <Send aria-hidden />
          Resend webhook
        </Button>
      }
      title="Resend this webhook?"
      description={
        <>
          The custody service delivers <strong className="font-medium text-foreground">{event}</strong> again
          to <span className="break-all font-mono text-foreground">{url}</span>. Receivers should treat it as
          a repeat.
        </>
      }
      confirmLabel="Resend"
      onConfirm={async () => {
        const result = await resendWebhookAction({ walletId, transactionId });
        if (!result.ok) {
          toast.error('Resend failed', { description: result.error });
          return false;
        }
        toast.success('Webhook resent', { description: result.data.message });
        refreshDeliveriesSoon(queryClient, walletId);
        onResent?.();
        return true;
      }}
    />
  );
}
