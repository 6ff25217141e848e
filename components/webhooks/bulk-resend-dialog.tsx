'use client';
// Bulk resend of selected failed deliveries: confirm, then a result per transaction, in words.
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Send, XCircle } from 'lucide-react';
import { useState, useTransition } from 'react';
import { toast } from 'sonner';
import {
  type ResendOutcome,
  resendWebhooksAction,
} from '@/app/(console)/wallets/[walletId]/webhooks/actions';
import { Button } from '@/components/ui/button';
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
import type { WebhookDeliveryGroup } from '@/lib/validation/webhooks';
import { refreshDeliveriesSoon } from './resend-webhook-button';

export interface BulkResendDialogProps {
  walletId: string;
  selected: WebhookDeliveryGroup[];
  onDone: () => void;
}

export function BulkResendDialog({ walletId, selected, onDone }: BulkResendDialogProps) {
  const [open, setOpen] = useState(false);
  const [pending, startTransition] = useTransition();
  const [results, setResults] = useState<ResendOutcome[] | null>(null);
  const queryClient = useQueryClient();
  // A resend (#2) is per transaction: two failed events of one transaction are one resend.
  const transactionIds = [...new Set(selected.map((d) => d.transactionId))];
  const eventsOf = new Map<string, string[]>();
  for (const d of selected)
    eventsOf.set(d.transactionId, [...(eventsOf.get(d.transactionId) ?? []), d.event]);

  const confirm = () =>
    startTransition(async () => {
      const result = await resendWebhooksAction({ walletId, transactionIds });
      if (!result.ok) {
        toast.error('Bulk resend refused', { description: result.error });
        return;
      }
      setResults(result.data);
      const failed = result.data.filter((r) => !r.ok).length;
      const sent = result.data.length - failed;
      if (failed === 0) toast.success(`Resent ${sent} ${sent === 1 ? 'webhook' : 'webhooks'}`);
      else toast.warning(`Resent ${sent} of ${result.data.length}; ${failed} failed`);
      refreshDeliveriesSoon(queryClient, walletId);
    });

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next && results) {
      setResults(null);
      onDone();
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button size="sm" disabled={selected.length === 0}>
          <Send aria-hidden />
          Resend selected ({transactionIds.length})
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>
            {results ? 'Resend results' : `Resend ${transactionIds.length} webhooks?`}
          </DialogTitle>
          <DialogDescription>
            {results
              ? 'Each transaction was resent on its own; the log shows each as a new send, and a failure keeps its reason.'
              : 'The custody service delivers each transaction’s webhook again to the wallet’s webhook URL, four at a time.'}
          </DialogDescription>
        </DialogHeader>
        <ul
          className="grid max-h-72 gap-1 overflow-y-auto text-sm"
          aria-label={results ? 'Results' : 'Selected deliveries'}
        >
          {transactionIds.map((id) => {
            const outcome = results?.find((r) => r.transactionId === id);
            return (
              <li key={id} className="flex items-start gap-2 rounded-md border px-2 py-1.5">
                {outcome ? (
                  outcome.ok ? (
                    <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-success" />
                  ) : (
                    <XCircle aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive" />
                  )
                ) : null}
                <span className="min-w-0">
                  <span className="font-medium">{eventsOf.get(id)?.join(', ')}</span>{' '}
                  <span className="break-all font-mono text-xs text-muted-foreground">{id}</span>
                  {outcome ? (
                    <span className="block">
                      {outcome.ok ? outcome.message : `Not resent: ${outcome.message}`}
                    </span>
                  ) : null}
                </span>
              </li>
            );
          })}
        </ul>
        <DialogFooter>
          {results ? (
            <DialogClose asChild>
              <Button>Done</Button>
            </DialogClose>
          ) : (
            <>
              <DialogClose asChild>
                <Button variant="outline" disabled={pending}>
                  Cancel
                </Button>
              </DialogClose>
              <Button onClick={confirm} disabled={pending}>
                {pending ? 'Resending…' : 'Resend all'}
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
