'use client';
import { useState, useTransition } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { lazyZodResolver } from '@/components/forms/lazy-zod-resolver';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { updatePolicyAction } from '@/lib/actions/policy';
import type { RequestedChange } from '@/lib/actions/users';
import type { policySchema } from '@/lib/validation/policy';

const policyResolver = lazyZodResolver(() => import('@/lib/validation/policy').then((m) => m.policySchema));

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
  const form = useForm<z.input<typeof policySchema>, unknown, z.output<typeof policySchema>>({
    resolver: policyResolver,
    defaultValues: {
      operationType,
      approvals: String(approvals),
      thresholdUsd: thresholdUsd === null ? '' : String(thresholdUsd),
      expiryMinutes: String(Math.round((expirySeconds / 60) * 1000) / 1000),
    },
  });
  const { errors } = form.formState;
  const [banner, setBanner] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const [pending, startTransition] = useTransition();
  const stepUp = useStepUp();
  const id = (name: string) => `${operationType}-${name}`;

  // The action parses the fields as typed (the form's own schema), so it gets them before conversion.
  const onSubmit = form.handleSubmit(() => {
    startTransition(async () => {
      setSaved(null);
      const values = form.getValues();
      const result = await stepUp.withStepUp(() => updatePolicyAction(values));
      if (result.ok) {
        // The change applies once a second admin approves it (the request shows the before and after).
        setBanner(null);
        setRequested(result.data);
        setSaved(`${label} policy change requested.`);
        return;
      }
      setBanner(result.error);
      for (const [field, message] of Object.entries(result.fieldErrors ?? {})) {
        const name = FIELDS.find((f) => f === field);
        if (name) form.setError(name, { message });
      }
    });
  });

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
