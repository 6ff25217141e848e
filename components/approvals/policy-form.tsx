'use client';
import { useState, useTransition } from 'react';
import { updatePolicyAction } from '@/app/(console)/admin/policy/actions';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

export interface PolicyFormProps {
  operationType: string;
  label: string;
  approvals: number;
  thresholdUsd: number | null;
  expirySeconds: number;
}

export function PolicyForm({
  operationType,
  label,
  approvals,
  thresholdUsd,
  expirySeconds,
}: PolicyFormProps) {
  const [values, setValues] = useState({
    approvals: String(approvals),
    thresholdUsd: thresholdUsd === null ? '' : String(thresholdUsd),
    expiryMinutes: String(Math.round((expirySeconds / 60) * 1000) / 1000),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const id = (name: string) => `${operationType}-${name}`;
  return (
    <form
      aria-label={`${label} policy`}
      className="grid gap-3 rounded-lg border p-4"
      onSubmit={(e) => {
        e.preventDefault();
        startTransition(async () => {
          setSaved(null);
          const result = await updatePolicyAction({ operationType, ...values });
          if (result.ok) {
            setErrors({});
            setBanner(null);
            setSaved(`${label} policy saved.`);
          } else {
            setErrors(result.fieldErrors ?? {});
            setBanner(result.error);
          }
        });
      }}
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
          error={errors.approvals}
          hint="Besides the requester; at least 1"
        >
          <Input
            id={id('approvals')}
            inputMode="numeric"
            value={values.approvals}
            onChange={(e) => setValues({ ...values, approvals: e.target.value })}
          />
        </Field>
        <Field
          id={id('threshold')}
          label={`${label}: one more approver above (USD)`}
          error={errors.thresholdUsd}
          hint="Empty: no threshold"
        >
          <Input
            id={id('threshold')}
            inputMode="decimal"
            value={values.thresholdUsd}
            onChange={(e) => setValues({ ...values, thresholdUsd: e.target.value })}
          />
        </Field>
        <Field
          id={id('expiry')}
          label={`${label}: open for (minutes)`}
          error={errors.expiryMinutes}
          hint="1440 = 24 hours"
        >
          <Input
            id={id('expiry')}
            inputMode="decimal"
            value={values.expiryMinutes}
            onChange={(e) => setValues({ ...values, expiryMinutes: e.target.value })}
          />
        </Field>
      </div>
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={pending}>
          Save {label.toLowerCase()} policy
        </Button>
        <p role="status" className="text-sm">
          {saved}
        </p>
      </div>
    </form>
  );
}
