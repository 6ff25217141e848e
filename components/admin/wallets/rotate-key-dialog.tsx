'use client';
import { KeyRoundIcon } from 'lucide-react';
import { useState, useTransition } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { lazyZodResolver } from '@/components/forms/lazy-zod-resolver';
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
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import type { RequestedChange } from '@/lib/actions/users';
import { rotateWalletKeyAction } from '@/lib/actions/wallet-connections';
import type { rotateWalletKeySchema } from '@/lib/validation/wallets';

const rotateWalletKeyResolver = lazyZodResolver(() =>
  import('@/lib/validation/wallets').then((m) => m.rotateWalletKeySchema),
);

type RotateKeyValues = z.input<typeof rotateWalletKeySchema>;

/** Replaces a wallet's key with a new one, verified first; the old key keeps verifying webhooks for 24 hours. */
export function RotateKeyDialog({ walletId, walletName }: { walletId: string; walletName: string }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const [pending, startTransition] = useTransition();
  const stepUp = useStepUp();
  const inputId = `rotate-key-${walletId}`;
  const form = useForm<RotateKeyValues>({
    resolver: rotateWalletKeyResolver,
    defaultValues: { walletId, apiKey: '' },
  });
  const { errors } = form.formState;

  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      form.reset({ walletId, apiKey: '' });
      setError(null);
      setRequested(null);
    }
  };

  const onSubmit = form.handleSubmit((values) => {
    setError(null);
    startTransition(async () => {
      const result = await stepUp.withStepUp(() => rotateWalletKeyAction(values));
      // The key never stays in the form, whatever the answer.
      form.setValue('apiKey', '');
      if (!result.ok) {
        setError(result.error);
        const message = result.fieldErrors?.apiKey;
        if (message) form.setError('apiKey', { message });
        return;
      }
      setRequested(result.data);
      toast.success('Waiting for a second admin');
    });
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Rotate key of ${walletName}`}>
          <KeyRoundIcon aria-hidden />
          Rotate key
        </Button>
      </DialogTrigger>
      <DialogContent>
        {requested ? (
          <div className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Key rotation requested</DialogTitle>
              <DialogDescription>A second admin approves it before it takes effect.</DialogDescription>
            </DialogHeader>
            <RequestedChangeNotice change={requested} />
            <DialogFooter>
              <Button type="button" onClick={() => close(false)}>
                Done
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={onSubmit} className="grid gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>Rotate the key of {walletName}</DialogTitle>
              <DialogDescription>
                The new key is checked against the custody service before it replaces the current one. The
                current key keeps verifying webhooks for 24 hours.
              </DialogDescription>
            </DialogHeader>
            {error ? (
              <Alert variant="destructive">
                <AlertDescription>{error}</AlertDescription>
              </Alert>
            ) : null}
            <Field
              id={inputId}
              label="New API key"
              error={errors.apiKey?.message ?? errors.walletId?.message}
            >
              <Input
                id={inputId}
                type="password"
                autoComplete="off"
                spellCheck={false}
                aria-invalid={Boolean(errors.apiKey)}
                {...form.register('apiKey')}
              />
            </Field>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? 'Checking the key…' : 'Request key rotation'}
              </Button>
            </DialogFooter>
          </form>
        )}
        {stepUp.dialog}
      </DialogContent>
    </Dialog>
  );
}
