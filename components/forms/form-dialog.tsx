'use client';
// The shell of a dialog whose content is a form: its title and description, the action's message in a banner,
// the fields, and Cancel and the submit button (disabled while the action runs). After the action, `done`
// replaces the form with what it answered.
import type * as React from 'react';
import { FormBanner } from '@/components/forms/form-banner';
import { Button, type ButtonProps } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { cn } from '@/lib/utils';

export interface FormDialogDone {
  title: React.ReactNode;
  description: React.ReactNode;
  /** What the action answered (the request it filed, a key shown once). */
  content: React.ReactNode;
  /** A Done button that closes the dialog; without it, none. */
  onDone?: () => void;
}

export interface FormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opens the dialog; without it, the dialog is opened by its owner. */
  trigger?: React.ReactNode;
  className?: string;
  title: React.ReactNode;
  description: React.ReactNode;
  /** The action's message when it refused. */
  banner: string | null;
  onSubmit: React.FormEventHandler<HTMLFormElement>;
  formLabel?: string;
  formClassName?: string;
  submitLabel: React.ReactNode;
  /** The submit button's words while the action runs; without it, `submitLabel`. */
  pendingLabel?: React.ReactNode;
  pending: boolean;
  submitDisabled?: boolean;
  submitVariant?: ButtonProps['variant'];
  /** A Cancel button before the submit button; without it, none. */
  onCancel?: () => void;
  /** More buttons between Cancel and the submit button. */
  actions?: React.ReactNode;
  /** Shown instead of the form once the action succeeded. */
  done?: FormDialogDone | null;
  /** Rendered inside the dialog after its content: a dialog of its own such as the step-up check. */
  after?: React.ReactNode;
  /** The form's fields. */
  children: React.ReactNode;
}

export function FormDialog({
  open,
  onOpenChange,
  trigger,
  className,
  title,
  description,
  banner,
  onSubmit,
  formLabel,
  formClassName,
  submitLabel,
  pendingLabel,
  pending,
  submitDisabled,
  submitVariant,
  onCancel,
  actions,
  done,
  after,
  children,
}: FormDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {trigger ? <DialogTrigger asChild>{trigger}</DialogTrigger> : null}
      <DialogContent className={className}>
        <DialogHeader>
          <DialogTitle>{done ? done.title : title}</DialogTitle>
          <DialogDescription>{done ? done.description : description}</DialogDescription>
        </DialogHeader>
        {done ? (
          <>
            {done.content}
            {done.onDone ? (
              <DialogFooter>
                <Button type="button" onClick={done.onDone}>
                  Done
                </Button>
              </DialogFooter>
            ) : null}
          </>
        ) : (
          <form
            onSubmit={onSubmit}
            className={cn('grid gap-4', formClassName)}
            noValidate
            aria-label={formLabel}
          >
            <FormBanner message={banner} />
            {children}
            <DialogFooter>
              {onCancel ? (
                <Button type="button" variant="outline" onClick={onCancel}>
                  Cancel
                </Button>
              ) : null}
              {actions}
              <Button type="submit" variant={submitVariant} disabled={pending || submitDisabled}>
                {pending && pendingLabel !== undefined ? pendingLabel : submitLabel}
              </Button>
            </DialogFooter>
          </form>
        )}
        {after}
      </DialogContent>
    </Dialog>
  );
}
