'use client';
// The address book's cooling-off as a policy value: a change is a request a second admin approves.
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
import type { coolingOffSchema } from '@/lib/validation/address-book';

const coolingOffResolver = lazyZodResolver(() =>
  import('@/lib/validation/address-book').then((m) => m.coolingOffSchema),
);

export function CoolingOffForm({ coolingOffSeconds }: { coolingOffSeconds: number }) {
  const form = useForm<z.input<typeof coolingOffSchema>, unknown, z.output<typeof coolingOffSchema>>({
    resolver: coolingOffResolver,
    defaultValues: { coolingOffMinutes: String(Math.round((coolingOffSeconds / 60) * 1000) / 1000) },
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
      aria-label="Address book cooling-off"
      className="grid gap-3 rounded-lg border p-4"
      onSubmit={onSubmit}
      noValidate
    >
      <h2 className="font-semibold">Address book cooling-off</h2>
      <p className="text-sm text-muted-foreground">
        How long a new address book entry (or an entry whose address changed) waits after approval before a
        withdrawal to it is accepted.
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
      <div>
        <Button type="submit" disabled={pending}>
          Request cooling-off change
        </Button>
      </div>
      {requested ? <RequestedChangeNotice change={requested} /> : null}
      {stepUp.dialog}
    </form>
  );
}
