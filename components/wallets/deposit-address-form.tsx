'use client';
import { CircleCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { FormBanner } from '@/components/forms/form-banner';
import { useActionForm } from '@/components/forms/use-action-form';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { toast } from '@/components/ui/toast';
import { AddressFlagsFieldset, MetadataField } from '@/components/wallets/address-option-fields';
import { createDepositAddressAction, type DepositAddressResult } from '@/lib/actions/deposit-addresses';
import type { DepositAddressForm as DepositAddressValues } from '@/lib/validation/settlement';

const loadDepositAddressFormSchema = () =>
  import('@/lib/validation/settlement').then((m) => m.depositAddressFormSchema);

const EMPTY: DepositAddressValues = {
  name: '',
  metadata: '',
  disableAutoSweep: false,
  enableGaslessWithdraw: false,
};

/** Creates a customer's deposit address; the custody service derives it from the wallet's key. */
export function DepositAddressForm({ walletId }: { walletId: string }) {
  const [created, setCreated] = useState<DepositAddressResult | null>(null);
  const { form, onSubmit, pending, banner } = useActionForm(
    (values: DepositAddressValues) => createDepositAddressAction({ walletId, form: values }),
    {
      schema: loadDepositAddressFormSchema,
      defaultValues: EMPTY,
      onSuccess: (data) => {
        setCreated(data);
        form.reset(EMPTY);
        toast.success(`Deposit address ${data.name ?? ''} created`);
      },
    },
  );
  const { errors } = form.formState;
  const base = `/wallets/${encodeURIComponent(walletId)}/addresses`;

  return (
    <div className="grid gap-6">
      {created ? (
        <Alert variant="success">
          <CircleCheckIcon aria-hidden />
          <AlertTitle>Deposit address created</AlertTitle>
          <AlertDescription className="grid gap-1">
            <p className="break-all">
              {created.name ? `${created.name}: ` : null}
              <span className="font-mono">{created.address}</span>
            </p>
            {created.derivationPath ? (
              <p>
                Derivation path <span className="font-mono">{created.derivationPath}</span>
              </p>
            ) : null}
            <p>
              <Link className="underline" href={`${base}/${encodeURIComponent(created.id)}`}>
                Open the address
              </Link>
            </p>
          </AlertDescription>
        </Alert>
      ) : null}
      <form onSubmit={onSubmit} className="grid gap-4" noValidate aria-label="New deposit address">
        <FormBanner message={banner} />
        <Field
          id="da-name"
          label="Name"
          hint="Who or what it is for, e.g. the customer."
          error={errors.name?.message}
        >
          <Input
            id="da-name"
            autoComplete="off"
            aria-invalid={Boolean(errors.name)}
            aria-describedby={errors.name ? 'da-name-error' : 'da-name-hint'}
            {...form.register('name')}
          />
        </Field>
        <MetadataField
          id="da-metadata"
          error={errors.metadata?.message}
          registration={form.register('metadata')}
          placeholder='{"customerId": "cus_123"}'
        />
        <AddressFlagsFieldset
          flags={['disableAutoSweep', 'enableGaslessWithdraw']}
          register={(name) => form.register(name)}
        />
        <Button type="submit" disabled={pending} className="justify-self-start">
          {pending ? 'Creating…' : 'Create deposit address'}
        </Button>
      </form>
    </div>
  );
}
