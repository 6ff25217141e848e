'use client';
import { LoaderCircleIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from './button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from './dialog';

export interface ConfirmDialogProps {
  trigger: React.ReactNode;
  title: string;
  description: React.ReactNode;
  /** What the dialog holds besides its description: a list of what is affected, a reason to type. */
  children?: React.ReactNode;
  confirmLabel: string;
  /** The button that closes the dialog without doing anything. */
  cancelLabel?: string;
  destructive?: boolean;
  /** Keeps the confirm button disabled (e.g. until a required acknowledgement is ticked). */
  confirmDisabled?: boolean;
  /** Why the last confirmation failed, shown inside the dialog (a toast would sit behind its overlay). */
  error?: string | null;
  /** Widens the dialog and lets a long body scroll. */
  className?: string;
  /** Told when the dialog opens or closes (to reset what it holds, say). */
  onOpenChange?: (open: boolean) => void;
  /** Resolves true to close the dialog; false keeps it open (e.g. the action failed and said why). */
  onConfirm: () => Promise<boolean>;
}

/** A confirmation step that names what will happen before a change is sent. */
export function ConfirmDialog({
  trigger,
  title,
  description,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  destructive,
  confirmDisabled,
  error,
  className,
  onOpenChange,
  onConfirm,
}: ConfirmDialogProps) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const changeOpen = (next: boolean) => {
    setOpen(next);
    onOpenChange?.(next);
  };
  return (
    <Dialog open={open} onOpenChange={(next) => !pending && changeOpen(next)}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className={className}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription asChild>
            <div>{description}</div>
          </DialogDescription>
        </DialogHeader>
        {children}
        {error ? (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={() => changeOpen(false)} disabled={pending}>
            {cancelLabel}
          </Button>
          <Button
            variant={destructive ? 'destructive' : 'default'}
            disabled={pending || confirmDisabled}
            onClick={async () => {
              setPending(true);
              try {
                if (await onConfirm()) changeOpen(false);
              } finally {
                setPending(false);
              }
            }}
          >
            {pending ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : null}
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
