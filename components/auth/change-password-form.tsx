'use client';
import { AlertCircleIcon } from 'lucide-react';
import { useActionState, useEffect, useRef, useState, useTransition } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { type ChangePasswordState, changePasswordAction } from '@/lib/actions/auth';

const FIELDS = [
  { name: 'currentPassword', label: 'Current password', autoComplete: 'current-password' },
  {
    name: 'newPassword',
    label: 'New password',
    autoComplete: 'new-password',
    hint: 'At least 12 characters.',
  },
  { name: 'confirmPassword', label: 'Repeat new password', autoComplete: 'new-password' },
] as const;
type FieldName = (typeof FIELDS)[number]['name'];

export function ChangePasswordForm() {
  const [state, dispatch, actionPending] = useActionState<ChangePasswordState, FormData>(
    changePasswordAction,
    {},
  );
  const [submitting, startTransition] = useTransition();
  const pending = actionPending || submitting;
  // Controlled, and submitted from onSubmit rather than the form's action prop: React resets a form
  // after an action prop runs, which would wipe what the person typed whenever the server says no.
  const [values, setValues] = useState<Record<FieldName, string>>({
    currentPassword: '',
    newPassword: '',
    confirmPassword: '',
  });
  const formRef = useRef<HTMLFormElement>(null);

  // Take the person to the first field the server refused.
  useEffect(() => {
    const first = FIELDS.find((f) => state.fieldErrors?.[f.name]);
    if (first) formRef.current?.querySelector<HTMLInputElement>(`#${first.name}`)?.focus();
  }, [state]);

  return (
    <form
      ref={formRef}
      className="grid gap-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        startTransition(() => dispatch(data));
      }}
    >
      {state.error ? (
        <Alert variant="destructive">
          <AlertCircleIcon aria-hidden />
          <AlertDescription>{state.error}</AlertDescription>
        </Alert>
      ) : null}
      {FIELDS.map((f) => {
        const error = state.fieldErrors?.[f.name];
        const hint = 'hint' in f ? f.hint : undefined;
        return (
          <Field key={f.name} id={f.name} label={f.label} error={error} hint={hint}>
            <Input
              id={f.name}
              name={f.name}
              type="password"
              autoComplete={f.autoComplete}
              required
              value={values[f.name]}
              onChange={(event) => setValues((v) => ({ ...v, [f.name]: event.target.value }))}
              aria-invalid={Boolean(error)}
              aria-describedby={error ? `${f.name}-error` : hint ? `${f.name}-hint` : undefined}
            />
          </Field>
        );
      })}
      <Button type="submit" disabled={pending}>
        Change password
      </Button>
    </form>
  );
}
