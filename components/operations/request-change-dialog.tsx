'use client';
// A change a second admin approves, asked for from a confirmation: the dialog names what is asked, files the
// request (asking for the second factor again when the server says so), then says it waits and links to it.
import { type ReactNode, useState, useTransition } from 'react';
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
import type { RequestedChange } from '@/lib/actions/configuration-request';

type Requested =
  | { ok: true; data: RequestedChange }
  | { ok: false; error: string; stepUp?: { payloadHash: string } };

export interface RequestChangeDialogProps {
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  /** "Request change", "Request removal". */
  confirmLabel: string;
  destructive?: boolean;
  /** Files the request. */
  request: () => Promise<Requested>;
}

export function RequestChangeDialog({
  trigger,
  title,
  description,
  confirmLabel,
  destructive,
  request,
}: RequestChangeDialogProps) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const [pending, startTransition] = useTransition();
  const stepUp = useStepUp();

  const confirm = () => {
    setError(null);
    startTransition(async () => {
      const result = await stepUp.withStepUp(request);
      if (!result.ok) {
        setError(result.error);
        return;
      }
      setRequested(result.data);
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (pending) return;
        setOpen(next);
        if (!next) {
          setError(null);
          setRequested(null);
        }
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription asChild>
            <div>{description}</div>
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
            <Button type="button" variant="outline" onClick={() => setOpen(false)} disabled={pending}>
              Cancel
            </Button>
            <Button
              type="button"
              variant={destructive ? 'destructive' : 'default'}
              onClick={confirm}
              disabled={pending}
            >
              {pending ? 'Requesting…' : confirmLabel}
            </Button>
          </DialogFooter>
        )}
        {stepUp.dialog}
      </DialogContent>
    </Dialog>
  );
}
