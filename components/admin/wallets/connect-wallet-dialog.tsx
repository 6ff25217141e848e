'use client';
import { PlugIcon } from 'lucide-react';
import { useState, useTransition } from 'react';
import { useForm } from 'react-hook-form';
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
import { connectWalletAction } from '@/lib/actions/wallet-connections';
import type { ConnectWalletInput } from '@/lib/validation/wallets';

const connectWalletResolver = lazyZodResolver(() =>
  import('@/lib/validation/wallets').then((m) => m.connectWalletSchema),
);

/** Adds a wallet by id and API key; the console reads the wallet with the key before storing anything. */
export function ConnectWalletDialog() {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const [pending, startTransition] = useTransition();
  const stepUp = useStepUp();
  const form = useForm<ConnectWalletInput>({
    resolver: connectWalletResolver,
    defaultValues: { walletId: '', apiKey: '' },
  });
  const { errors } = form.formState;

  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      form.reset();
      setError(null);
      setRequested(null);
    }
  };

  const onSubmit = form.handleSubmit((values) => {
    setError(null);
    startTransition(async () => {
      const result = await stepUp.withStepUp(() => connectWalletAction(values));
      if (!result.ok) {
        setError(result.error);
        // The key never stays in the form after a failed attempt either.
        form.setValue('apiKey', '');
        for (const [field, message] of Object.entries(result.fieldErrors ?? {})) {
          if (field === 'walletId' || field === 'apiKey') form.setError(field, { message });
        }
        return;
      }
      form.setValue('apiKey', '');
      setRequested(result.data);
      toast.success('Waiting for a second admin');
    });
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogTrigger asChild>
        <Button>
          <PlugIcon aria-hidden />
          Connect wallet
        </Button>
      </DialogTrigger>
      <DialogContent>
        {requested ? (
          <div className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Connection requested</DialogTitle>
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
              <DialogTitle>Connect a wallet</DialogTitle>
              <DialogDescription>
                The console reads the wallet with this key to check it, then stores the key encrypted. It is
                never shown again: only its last four characters.
              </DialogDescription>
            </DialogHeader>
            {error ? (
              <Alert variant="destructive">
                <AlertDescription>{error}</AlertDescription>
              </Alert>
            ) : null}
            <Field id="connect-wallet-id" label="Wallet id" error={errors.walletId?.message}>
              <Input
                id="connect-wallet-id"
                autoComplete="off"
                spellCheck={false}
                aria-invalid={Boolean(errors.walletId)}
                {...form.register('walletId')}
              />
            </Field>
            <Field id="connect-api-key" label="API key" error={errors.apiKey?.message}>
              <Input
                id="connect-api-key"
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
                {pending ? 'Checking the key…' : 'Request connection'}
              </Button>
            </DialogFooter>
          </form>
        )}
        {stepUp.dialog}
      </DialogContent>
    </Dialog>
  );
}
