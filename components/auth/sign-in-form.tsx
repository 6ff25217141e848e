'use client';
import { AlertCircleIcon, LoaderCircleIcon } from 'lucide-react';
import dynamic from 'next/dynamic';
import { useActionState, useTransition } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { type SignInState, signInAction } from '@/lib/actions/auth';

// The second step (codes, passkeys, enrolment) loads when the password is sent, not with the page.
const loadSecondStep = () => import('./second-factor-step');
const SecondFactorStep = dynamic(() => loadSecondStep().then((m) => m.SecondFactorStep), {
  loading: () => (
    <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
      <LoaderCircleIcon aria-hidden className="size-4 animate-spin" />
      Checking…
    </p>
  ),
});

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const [state, action, actionPending] = useActionState<SignInState, FormData>(signInAction, {});
  const [submitting, startTransition] = useTransition();
  const pending = actionPending || submitting;
  if (state.secondStep) {
    return (
      <SecondFactorStep
        key={state.secondStep.pendingId}
        state={state}
        callbackUrl={callbackUrl}
        pending={pending}
        submit={(data) => startTransition(() => action(data))}
      />
    );
  }
  return (
    <form action={action} onSubmit={() => void loadSecondStep()} className="grid gap-4" noValidate>
      {state.error ? (
        <Alert variant="destructive">
          <AlertCircleIcon aria-hidden />
          <AlertDescription>{state.error}</AlertDescription>
        </Alert>
      ) : null}
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <Field id="email" label="Email" error={state.fieldErrors?.email}>
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          defaultValue={state.email}
          aria-invalid={Boolean(state.fieldErrors?.email)}
          aria-describedby={state.fieldErrors?.email ? 'email-error' : undefined}
        />
      </Field>
      <Field id="password" label="Password" error={state.fieldErrors?.password}>
        <Input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={Boolean(state.fieldErrors?.password)}
          aria-describedby={state.fieldErrors?.password ? 'password-error' : undefined}
        />
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : null}
        Sign in
      </Button>
    </form>
  );
}
