'use client';
// The address book policy: the cooling-off, and the destination policy (money goes only to address book entries
// past their cooling-off). A change is a request a second admin approves; turning the destination policy off
// loosens the rules, and the review says so.
import { useState } from 'react';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { useActionForm } from '@/components/forms/use-action-form';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { requestCoolingOffChangeAction } from '@/lib/actions/address-book';
import type { RequestedChange } from '@/lib/actions/configuration-request';
import { DESTINATION_POLICY_LABEL } from '@/lib/approvals/address-book';

const loadCoolingOffSchema = () => import('@/lib/validation/address-book').then((m) => m.coolingOffSchema);

export function CoolingOffForm({
  coolingOffSeconds,
  destinationPolicy,
}: {
  coolingOffSeconds: number;
  destinationPolicy: boolean;
}) {
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const stepUp = useStepUp();
  const { form, onSubmit, pending, banner } = useActionForm(
    // The action parses the field as typed (the form's own schema), so it gets it before conversion.
    (_, typed) => stepUp.withStepUp(() => requestCoolingOffChangeAction(typed)),
    {
      schema: loadCoolingOffSchema,
      defaultValues: {
        coolingOffMinutes: String(Math.round((coolingOffSeconds / 60) * 1000) / 1000),
        destinationPolicy,
      },
      fields: ['coolingOffMinutes'],
      keepBannerWhilePending: true,
      onSuccess: (data) => setRequested(data),
    },
  );
  const { errors } = form.formState;

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
