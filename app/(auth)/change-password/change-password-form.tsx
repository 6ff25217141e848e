'use client';
import { AlertCircleIcon } from 'lucide-react';
import { useActionState } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { type ChangePasswordState, changePasswordAction } from './actions';

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

export function ChangePasswordForm() {
  const [state, action, pending] = useActionState<ChangePasswordState, FormData>(changePasswordAction, {});
  return (
    <form action={action} className="grid gap-4" noValidate>
      {state.error ? (
        <Alert variant="destructive">
          <AlertCircleIcon aria-hidden />
          <AlertDescription>{state.error}</AlertDescription>
        </Alert>
      ) : null}
      {FIELDS.map((f) => {
        const error = state.fieldErrors?.[f.name];
        return (
          <Field
            key={f.name}
            id={f.name}
            label={f.label}
            error={error}
            hint={'hint' in f ? f.hint : undefined}
          >
            <Input
              id={f.name}
              name={f.name}
              type="password"
              autoComplete={f.autoComplete}
              required
              aria-invalid={Boolean(error)}
              aria-describedby={error ? `${f.name}-error` : undefined}
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
