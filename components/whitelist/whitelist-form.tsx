'use client';
import { ShieldCheckIcon } from 'lucide-react';
import Link from 'next/link';
import { useState, useTransition } from 'react';
import { useForm } from 'react-hook-form';
import { lazyZodResolver } from '@/components/forms/lazy-zod-resolver';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { AddressFlagsFieldset, MetadataField } from '@/components/wallets/address-option-fields';
import { type WhitelistResult, whitelistAddressAction } from '@/lib/actions/whitelist';
import type { WhitelistForm as WhitelistFormValues } from '@/lib/validation/settlement';

const whitelistFormResolver = lazyZodResolver(() =>
  import('@/lib/validation/settlement').then((m) => m.whitelistFormSchema),
);

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
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<WhitelistResult | null>(null);
  const form = useForm<WhitelistFormValues>({
    resolver: whitelistFormResolver,
    defaultValues: EMPTY,
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setError(null);
    startTransition(async () => {
      const outcome = await whitelistAddressAction({ walletId, form: values });
      // The private key is write-only: forget it whatever the outcome.
      form.setValue('privateKey', '');
      if (!outcome.ok) {
        setError(outcome.error);
        for (const [field, message] of Object.entries(outcome.fieldErrors ?? {})) {
          form.setError(field as keyof WhitelistFormValues, { message });
        }
        return;
      }
      setResult(outcome.data);
      form.reset(EMPTY);
      toast.success(`${outcome.data.address} whitelisted`);
    });
  });

  return (
    <div className="grid gap-6">
      {result ? (
        <Alert variant="success">
          <ShieldCheckIcon aria-hidden />
          <AlertTitle>Address whitelisted</AlertTitle>
          <AlertDescription className="grid gap-1">
            <p>
              <span className="font-mono">{result.address}</span> {result.name ? `(${result.name})` : null} is
              now <Badge variant="secondary">{result.type}</Badge>
            </p>
            <p>
              AML screening:{' '}
              {result.aml ? (
                <>
                  <Badge variant={['success', 'passed'].includes(result.aml.status) ? 'success' : 'warning'}>
                    {result.aml.status}
                  </Badge>{' '}
                  {result.aml.message} ({result.aml.provider})
                </>
              ) : (
                'not reported'
              )}
            </p>
            <p>
              <Link className="underline" href={`/wallets/${walletId}/addresses?type=EXTERNAL`}>
                See external addresses
              </Link>
            </p>
          </AlertDescription>
        </Alert>
      ) : null}
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        {error ? (
          <Alert variant="destructive">
            <AlertDescription>{error}</AlertDescription>
          </Alert>
        ) : null}
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
          hint="Write-only: sent to the custody service once, never shown, logged or stored by the console."
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
          Whitelist address
        </Button>
      </form>
    </div>
  );
}
