'use client';
// Bulk resend of selected failed deliveries: confirm, then a result per transaction, in words.
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Send, XCircle } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { type ResendOutcome, resendWebhooksAction } from '@/lib/actions/webhooks';
import type { WebhookDeliveryGroup } from '@/lib/validation/webhooks';
import { bulkResendText } from './bulk-resend-text';
import { refreshDeliveriesSoon } from './resend-webhook-button';

export interface BulkResendDialogProps {
  walletId: string;
  selected: WebhookDeliveryGroup[];
  onDone: () => void;
}

export function BulkResendDialog({ walletId, selected, onDone }: BulkResendDialogProps) {
  // What was sent, kept as it was at confirmation: the log refreshes (and the selection with it) meanwhile.
  const [results, setResults] = useState<{
    outcomes: ResendOutcome[];
    eventsOf: Map<string, string[]>;
  } | null>(null);
  const queryClient = useQueryClient();
  // A resend (#2) is per transaction: two failed events of one transaction are one resend.
  const transactionIds = [...new Set(selected.map((d) => d.transactionId))];
  const { title, confirmLabel } = bulkResendText(transactionIds.length);
  const eventsOf = new Map<string, string[]>();
  for (const d of selected)
    eventsOf.set(d.transactionId, [...(eventsOf.get(d.transactionId) ?? []), d.event]);

  const confirm = async () => {
    const result = await resendWebhooksAction({ walletId, transactionIds });
    if (!result.ok) {
      toast.error('Bulk resend refused', { description: result.error });
      return false;
    }
    setResults({ outcomes: result.data, eventsOf });
    const failed = result.data.filter((r) => !r.ok).length;
    const sent = result.data.length - failed;
    if (failed === 0) toast.success(`Resent ${sent} ${sent === 1 ? 'webhook' : 'webhooks'}`);
    else toast.warning(`Resent ${sent} of ${result.data.length}; ${failed} failed`);
    refreshDeliveriesSoon(queryClient, walletId);
    return true;
  };

  const closeResults = () => {
    setResults(null);
    onDone();
  };

  return (
    <>
      <ConfirmDialog
        trigger={
          <Button size="sm" disabled={selected.length === 0}>
            <Send aria-hidden />
            Resend selected ({transactionIds.length})
          </Button>
        }
        title={title}
        description="The custody service delivers each transaction’s webhook again to the wallet’s webhook URL, four at a time."
        confirmLabel={confirmLabel}
        className="max-h-[90vh] overflow-y-auto"
        onConfirm={confirm}
      >
        <DeliveryList label="Selected deliveries" transactionIds={transactionIds} eventsOf={eventsOf} />
      </ConfirmDialog>
      <Dialog open={results !== null} onOpenChange={(open) => !open && closeResults()}>
        <DialogContent className="max-h-[90vh] overflow-y-auto">
          <DialogHeader>
            <DialogTitle>Resend results</DialogTitle>
            <DialogDescription>
              Each transaction was resent on its own; the log shows each as a new send, and a failure keeps
              its reason.
            </DialogDescription>
          </DialogHeader>
          {results ? (
            <DeliveryList
              label="Results"
              transactionIds={results.outcomes.map((r) => r.transactionId)}
              eventsOf={results.eventsOf}
              results={results.outcomes}
            />
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button>Done</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}

function DeliveryList({
  label,
  transactionIds,
  eventsOf,
  results,
}: {
  label: string;
  transactionIds: string[];
  eventsOf: Map<string, string[]>;
  results?: ResendOutcome[];
}) {
  return (
    <ul className="grid max-h-72 gap-1 overflow-y-auto text-sm" aria-label={label}>
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
  );
}
