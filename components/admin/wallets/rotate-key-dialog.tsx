'use client';
import { KeyRoundIcon } from 'lucide-react';
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
import { rotateWalletKeyAction } from '@/lib/actions/wallet-connections';

const loadRotateWalletKeySchema = () =>
  import('@/lib/validation/wallets').then((m) => m.rotateWalletKeySchema);

/** Replaces a wallet's key with a new one, verified first; the old key keeps verifying webhooks for 24 hours. */
export function RotateKeyDialog({ walletId, walletName }: { walletId: string; walletName: string }) {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const stepUp = useStepUp();
  const inputId = `rotate-key-${walletId}`;
  const { form, onSubmit, pending, banner, reset } = useActionForm(
    async (values) => {
      const result = await stepUp.withStepUp(() => rotateWalletKeyAction(values));
      // The key never stays in the form, whatever the answer.
      form.setValue('apiKey', '');
      return result;
    },
    {
      schema: loadRotateWalletKeySchema,
      defaultValues: { walletId, apiKey: '' },
      fields: ['apiKey'],
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
      reset({ walletId, apiKey: '' });
      setRequested(null);
    }
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={close}
      trigger={
        <Button variant="outline" size="sm" aria-label={`Rotate key of ${walletName}`}>
          <KeyRoundIcon aria-hidden />
          Rotate key
        </Button>
      }
      title={`Rotate the key of ${walletName}`}
      description="The new key is checked against the custody service before it replaces the current one. The current key keeps verifying webhooks for 24 hours."
      banner={banner}
      onSubmit={onSubmit}
      submitLabel="Request key rotation"
      pendingLabel="Checking the key…"
      pending={pending}
      onCancel={() => close(false)}
      done={
        requested
          ? {
              title: 'Key rotation requested',
              description: 'A second admin approves it before it takes effect.',
              content: <RequestedChangeNotice change={requested} />,
              onDone: () => close(false),
            }
          : null
      }
      after={stepUp.dialog}
    >
      <Field id={inputId} label="New API key" error={errors.apiKey?.message ?? errors.walletId?.message}>
        <Input
          id={inputId}
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
