'use client';
// Whitelisting an address is a request a second admin approves: the form files it and links to it.
import { useState } from 'react';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { FormBanner } from '@/components/forms/form-banner';
import { useActionForm } from '@/components/forms/use-action-form';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { AddressFlagsFieldset, MetadataField } from '@/components/wallets/address-option-fields';
import type { RequestedChange } from '@/lib/actions/configuration-request';
import { whitelistAddressAction } from '@/lib/actions/whitelist';
import type { WhitelistForm as WhitelistFormValues } from '@/lib/validation/settlement';

const loadWhitelistFormSchema = () =>
  import('@/lib/validation/settlement').then((m) => m.whitelistFormSchema);

const EMPTY: WhitelistFormValues = {
  address: '',
  name: '',
  metadata: '',
  disableAutoSweep: false,
  enableGaslessWithdraw: false,
  showPrivateKey: false,
  privateKey: '',
};

export function WhitelistForm({ walletId }: { walletId: string }) {
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const stepUp = useStepUp();
  const { form, onSubmit, pending, banner } = useActionForm(
    async (values: WhitelistFormValues) => {
      const outcome = await stepUp.withStepUp(() => whitelistAddressAction({ walletId, form: values }));
      // The private key is write-only: forget it whatever the outcome (the request keeps it sealed).
      form.setValue('privateKey', '');
      return outcome;
    },
    {
      schema: loadWhitelistFormSchema,
      defaultValues: EMPTY,
      onSubmit: () => setRequested(null),
      onSuccess: (data) => {
        setRequested(data);
        form.reset(EMPTY);
      },
    },
  );
  const { errors } = form.formState;

  return (
    <div className="grid gap-6">
      {requested ? <RequestedChangeNotice change={requested} /> : null}
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <FormBanner message={banner} />
        <Field id="wl-address" label="Address" error={errors.address?.message}>
          <Input
            id="wl-address"
            className="font-mono"
            spellCheck={false}
            autoComplete="off"
            aria-invalid={Boolean(errors.address)}
            aria-describedby={errors.address ? 'wl-address-error' : undefined}
            {...form.register('address')}
          />
        </Field>
        <Field id="wl-name" label="Name" error={errors.name?.message}>
          <Input id="wl-name" {...form.register('name')} />
        </Field>
        <MetadataField
          id="wl-metadata"
          error={errors.metadata?.message}
          registration={form.register('metadata')}
        />
        <AddressFlagsFieldset
          flags={['disableAutoSweep', 'enableGaslessWithdraw', 'showPrivateKey']}
          register={(name) => form.register(name)}
        />
        <Field
          id="wl-private-key"
          label="Private key (optional)"
          hint="Write-only: kept sealed with the request and sent to the custody service once, when it is approved; never shown or logged."
          error={errors.privateKey?.message}
        >
          <Input
            id="wl-private-key"
            type="password"
            autoComplete="off"
            className="font-mono"
            aria-invalid={Boolean(errors.privateKey)}
            aria-describedby={errors.privateKey ? 'wl-private-key-error' : 'wl-private-key-hint'}
            {...form.register('privateKey')}
          />
        </Field>
        <Button type="submit" disabled={pending} className="justify-self-start">
          {pending ? 'Requesting…' : 'Request change'}
        </Button>
      </form>
      {stepUp.dialog}
    </div>
  );
}
