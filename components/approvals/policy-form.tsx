'use client';
import { useState } from 'react';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { useActionForm } from '@/components/forms/use-action-form';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { updatePolicyAction } from '@/lib/actions/policy';
import type { RequestedChange } from '@/lib/actions/users';
import { isSamePolicy, POLICY_UNCHANGED } from '@/lib/approvals/policy';

const loadPolicySchema = () => import('@/lib/validation/policy').then((m) => m.policySchema);

export interface PolicyFormProps {
  operationType: string;
  label: string;
  approvals: number;
  thresholdUsd: number | null;
  expirySeconds: number;
}

const FIELDS = ['approvals', 'thresholdUsd', 'expiryMinutes'] as const;

export function PolicyForm({
  operationType,
  label,
  approvals,
  thresholdUsd,
  expirySeconds,
}: PolicyFormProps) {
  const [saved, setSaved] = useState<string | null>(null);
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const stepUp = useStepUp();
  const { form, onSubmit, pending, banner } = useActionForm(
    // The action parses the fields as typed (the form's own schema), so it gets them before conversion.
    (values, typed) => {
      setSaved(null);
      // Said here before any second-factor check; the action refuses it too.
      const after = {
        approvals: values.approvals,
        thresholdUsd: values.thresholdUsd === '' ? null : Number(values.thresholdUsd),
        expirySeconds: Math.round(values.expiryMinutes * 60),
      };
      if (isSamePolicy({ approvals, thresholdUsd, expirySeconds }, after))
        return Promise.resolve({ ok: false as const, error: POLICY_UNCHANGED });
      return stepUp.withStepUp(() => updatePolicyAction(typed));
    },
    {
      schema: loadPolicySchema,
      defaultValues: {
        operationType,
        approvals: String(approvals),
        thresholdUsd: thresholdUsd === null ? '' : String(thresholdUsd),
        expiryMinutes: String(Math.round((expirySeconds / 60) * 1000) / 1000),
      },
      fields: FIELDS,
      keepBannerWhilePending: true,
      onSuccess: (data) => {
        // The change applies once a second admin approves it (the request shows the before and after).
        setRequested(data);
        setSaved(`${label} policy change requested.`);
      },
    },
  );
  const { errors } = form.formState;
  const id = (name: string) => `${operationType}-${name}`;

  return (
    <>
      {stepUp.dialog}
      <form
        aria-label={`${label} policy`}
        className="grid gap-3 rounded-lg border p-4"
        onSubmit={onSubmit}
        noValidate
      >
        <h2 className="font-semibold">{label}</h2>
        {banner ? (
          <p role="alert" className="text-sm text-destructive">
            {banner}
          </p>
        ) : null}
        <div className="grid gap-3 sm:grid-cols-3">
          <Field
            id={id('approvals')}
            label={`${label}: approvers needed`}
            error={errors.approvals?.message}
            hint="Besides the requester; at least 1"
          >
            <Input
              id={id('approvals')}
              inputMode="numeric"
              aria-invalid={Boolean(errors.approvals)}
              {...form.register('approvals')}
            />
          </Field>
          <Field
            id={id('threshold')}
            label={`${label}: one more approver above (USD)`}
            error={errors.thresholdUsd?.message}
            hint="Empty: no threshold"
          >
            <Input
              id={id('threshold')}
              inputMode="decimal"
              aria-invalid={Boolean(errors.thresholdUsd)}
              {...form.register('thresholdUsd')}
            />
          </Field>
          <Field
            id={id('expiry')}
            label={`${label}: open for (minutes)`}
            error={errors.expiryMinutes?.message}
            hint="1440 = 24 hours"
          >
            <Input
              id={id('expiry')}
              inputMode="decimal"
              aria-invalid={Boolean(errors.expiryMinutes)}
              {...form.register('expiryMinutes')}
            />
          </Field>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {/* The name carries the kind ("Request retry of a failed transaction policy change"): it wraps on a phone. */}
          <Button type="submit" disabled={pending} className="h-auto min-h-9 whitespace-normal text-left">
            Request {label.toLowerCase()} policy change
          </Button>
          <p role="status" className="text-sm">
            {saved}
          </p>
        </div>
        {requested ? <RequestedChangeNotice change={requested} /> : null}
      </form>
    </>
  );
}
