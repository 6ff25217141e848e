'use client';
// The address book policy: the cooling-off, and the destination policy (money goes only to address book entries
// past their cooling-off). A change is a request a second admin approves; turning the destination policy off
// loosens the rules, and the review says so.
import { useState, useTransition } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { lazyZodResolver } from '@/components/forms/lazy-zod-resolver';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { requestCoolingOffChangeAction } from '@/lib/actions/address-book';
import type { RequestedChange } from '@/lib/actions/configuration-request';
import { DESTINATION_POLICY_LABEL } from '@/lib/approvals/address-book';
import type { coolingOffSchema } from '@/lib/validation/address-book';

const coolingOffResolver = lazyZodResolver(() =>
  import('@/lib/validation/address-book').then((m) => m.coolingOffSchema),
);

export function CoolingOffForm({
  coolingOffSeconds,
  destinationPolicy,
}: {
  coolingOffSeconds: number;
  destinationPolicy: boolean;
}) {
  const form = useForm<z.input<typeof coolingOffSchema>, unknown, z.output<typeof coolingOffSchema>>({
    resolver: coolingOffResolver,
    defaultValues: {
      coolingOffMinutes: String(Math.round((coolingOffSeconds / 60) * 1000) / 1000),
      destinationPolicy,
    },
  });
  const { errors } = form.formState;
  const [banner, setBanner] = useState<string | null>(null);
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const [pending, startTransition] = useTransition();
  const stepUp = useStepUp();

  // The action parses the field as typed (the form's own schema), so it gets it before conversion.
  const onSubmit = form.handleSubmit(() => {
    startTransition(async () => {
      const result = await stepUp.withStepUp(() => requestCoolingOffChangeAction(form.getValues()));
      if (result.ok) {
        setBanner(null);
        setRequested(result.data);
        return;
      }
      setBanner(result.error);
      const message = result.fieldErrors?.coolingOffMinutes;
      if (message) form.setError('coolingOffMinutes', { message });
    });
  });

  return (
    <form
      aria-label="Address book policy"
      className="grid gap-3 rounded-lg border p-4"
      onSubmit={onSubmit}
      noValidate
    >
      <h2 className="font-semibold">Address book policy</h2>
      <p className="text-sm text-muted-foreground">
        How long a new address book entry (or an entry whose address changed) waits after approval before a
        withdrawal to it is accepted, and whether money may go anywhere else.
      </p>
      {banner ? (
        <p role="alert" className="text-sm text-destructive">
          {banner}
        </p>
      ) : null}
      <Field
        id="cooling-off-minutes"
        label="Cooling-off (minutes)"
        error={errors.coolingOffMinutes?.message}
        hint="1440 = 24 hours"
        className="max-w-xs"
      >
        <Input
          id="cooling-off-minutes"
          inputMode="decimal"
          aria-invalid={Boolean(errors.coolingOffMinutes)}
          {...form.register('coolingOffMinutes')}
        />
      </Field>
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" className="mt-0.5 size-4" {...form.register('destinationPolicy')} />
        <span>
          {DESTINATION_POLICY_LABEL}
          <span className="block text-muted-foreground">
            Withdrawals, payout files, payout schedules, API withdrawals and settlement rules may pay only
            this console&apos;s address book entries whose cooling-off has passed; a whitelisted address or a
            beneficiary counts once it is in the book. Off: other addresses are paid with a warning.
          </span>
        </span>
      </label>
      <div>
        <Button type="submit" disabled={pending}>
          Request address book policy change
        </Button>
      </div>
      {requested ? <RequestedChangeNotice change={requested} /> : null}
      {stepUp.dialog}
    </form>
  );
}
