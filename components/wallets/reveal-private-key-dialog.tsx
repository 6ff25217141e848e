'use client';
import { KeyRoundIcon } from 'lucide-react';
import { useState, useTransition } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { lazyZodResolver } from '@/components/forms/lazy-zod-resolver';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { revealPrivateKeyAction } from '@/lib/actions/addresses';
import type { revealPrivateKeySchema } from '@/lib/validation/wallets';

const revealPrivateKeyResolver = lazyZodResolver(() =>
  import('@/lib/validation/wallets').then((m) => m.revealPrivateKeySchema),
);

type RevealValues = z.input<typeof revealPrivateKeySchema>;

export interface RevealPrivateKeyDialogProps {
  walletId: string;
  addressId: string;
  addressName: string;
  /** The approved request to see the key. */
  requestId: string;
  /** The key was shown (or could not be): the page reads the request anew. */
  onDone?: () => void;
}

/**
 * The admin whose request a second admin approved re-enters the password, then the key is shown once. It lives in
 * this component's state only (no query cache, no storage) and is forgotten when the dialog closes.
 */
export function RevealPrivateKeyDialog({
  walletId,
  addressId,
  addressName,
  requestId,
  onDone,
}: RevealPrivateKeyDialogProps) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [revealed, setRevealed] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const stepUp = useStepUp();
  const empty: RevealValues = { walletId, addressId, password: '', requestId };
  const form = useForm<RevealValues>({ resolver: revealPrivateKeyResolver, defaultValues: empty });
  const passwordError = form.formState.errors.password?.message;

  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      if (revealed) onDone?.();
      setRevealed(null);
      form.reset(empty);
      setError(null);
    }
  };

  const onSubmit = form.handleSubmit((values) => {
    setError(null);
    startTransition(async () => {
      const result = await stepUp.withStepUp(() => revealPrivateKeyAction(values));
      form.setValue('password', '');
      if (!result.ok) {
        if (result.fieldErrors?.password) form.setError('password', { message: result.fieldErrors.password });
        else setError(result.error);
        return;
      }
      setRevealed(result.data.privateKey);
    });
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogTrigger asChild>
        <Button variant="destructive">
          <KeyRoundIcon aria-hidden />
          Show the private key
        </Button>
      </DialogTrigger>
      <DialogContent>
        {stepUp.dialog}
        {revealed ? (
          <>
            <DialogHeader>
              <DialogTitle>Private key of {addressName}</DialogTitle>
              <DialogDescription>
                Shown once. Anyone with this key controls the address’s funds. It is not stored; closing this
                dialog forgets it.
              </DialogDescription>
            </DialogHeader>
            <div className="flex items-center gap-2">
              <code
                data-testid="private-key"
                className="flex-1 break-all rounded-md bg-muted px-3 py-2 font-mono text-xs"
              >
                {revealed}
              </code>
              <CopyButton value={revealed} label="Copy private key" className="size-9" />
            </div>
            <DialogFooter>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={onSubmit} className="grid gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>Reveal private key</DialogTitle>
              <DialogDescription>
                Re-enter your password to reveal the private key of {addressName}. This is recorded in the
                audit log.
              </DialogDescription>
            </DialogHeader>
            {error ? (
              <Alert variant="destructive">
                <AlertDescription>{error}</AlertDescription>
              </Alert>
            ) : null}
            <Field id="reveal-password" label="Your password" error={passwordError}>
              <Input
                id="reveal-password"
                type="password"
                autoComplete="current-password"
                aria-invalid={Boolean(passwordError)}
                aria-describedby={passwordError ? 'reveal-password-error' : undefined}
                {...form.register('password')}
              />
            </Field>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={pending}>
                {pending ? 'Checking…' : 'Reveal'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
