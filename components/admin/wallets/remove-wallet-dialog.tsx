'use client';
import { Trash2Icon } from 'lucide-react';
import { useState, useTransition } from 'react';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import type { RequestedChange } from '@/lib/actions/users';
import { removeWalletAction } from '@/lib/actions/wallet-connections';

/** Forgets a wallet and its key (the wallet itself stays at the custody service); confirmation names it. */
export function RemoveWalletDialog({ walletId, walletName }: { walletId: string; walletName: string }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const [pending, startTransition] = useTransition();
  const stepUp = useStepUp();

  const remove = () => {
    setError(null);
    startTransition(async () => {
      const result = await stepUp.withStepUp(() => removeWalletAction({ walletId }));
      if (!result.ok) {
        setError(result.error);
        return;
      }
      setRequested(result.data);
      toast.success('Waiting for a second admin');
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setError(null);
          setRequested(null);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Remove ${walletName}`}>
          <Trash2Icon aria-hidden />
          Remove
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Remove {walletName}?</DialogTitle>
          <DialogDescription>
            The console forgets this wallet and its API key: its pages disappear and its webhooks are refused.
            The wallet itself stays at the custody service; you can connect it again with its id and key.
          </DialogDescription>
        </DialogHeader>
        {error ? (
          <Alert variant="destructive">
            <AlertDescription>{error}</AlertDescription>
          </Alert>
        ) : null}
        {requested ? (
          <>
            <RequestedChangeNotice change={requested} />
            <DialogFooter>
              <Button type="button" onClick={() => setOpen(false)}>
                Done
              </Button>
            </DialogFooter>
          </>
        ) : (
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="button" variant="destructive" onClick={remove} disabled={pending}>
              {pending ? 'Requesting…' : `Request removal of ${walletName}`}
            </Button>
          </DialogFooter>
        )}
        {stepUp.dialog}
      </DialogContent>
    </Dialog>
  );
}
