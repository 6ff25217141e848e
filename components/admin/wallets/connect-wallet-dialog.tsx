'use client';
import { PlugIcon } from 'lucide-react';
import { useState } from 'react';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { FormDialog } from '@/components/forms/form-dialog';
import { useActionForm } from '@/components/forms/use-action-form';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import type { RequestedChange } from '@/lib/actions/users';
import { connectWalletAction } from '@/lib/actions/wallet-connections';

const loadConnectWalletSchema = () => import('@/lib/validation/wallets').then((m) => m.connectWalletSchema);

/** Adds a wallet by id and API key; the console reads the wallet with the key before storing anything. */
export function ConnectWalletDialog() {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const stepUp = useStepUp();
  const { form, onSubmit, pending, banner, reset } = useActionForm(
    async (values) => {
      const result = await stepUp.withStepUp(() => connectWalletAction(values));
      // The key never stays in the form, whatever the answer.
      form.setValue('apiKey', '');
      return result;
    },
    {
      schema: loadConnectWalletSchema,
      defaultValues: { walletId: '', apiKey: '' },
      fields: ['walletId', 'apiKey'],
      onSuccess: (data) => {
        setRequested(data);
        toast.success('Waiting for a second admin');
      },
    },
  );
  const { errors } = form.formState;

  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      reset();
      setRequested(null);
    }
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={close}
      trigger={
        <Button>
          <PlugIcon aria-hidden />
          Connect wallet
        </Button>
      }
      title="Connect a wallet"
      description="The console reads the wallet with this key to check it, then stores the key encrypted. It is never shown again: only its last four characters."
      banner={banner}
      onSubmit={onSubmit}
      submitLabel="Request connection"
      pendingLabel="Checking the key…"
      pending={pending}
      onCancel={() => close(false)}
      done={
        requested
          ? {
              title: 'Connection requested',
              description: 'A second admin approves it before it takes effect.',
              content: <RequestedChangeNotice change={requested} />,
              onDone: () => close(false),
            }
          : null
      }
      after={stepUp.dialog}
    >
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
    </FormDialog>
  );
}
