'use client';
// The invited person's own page: they choose their password and, when their role approves requests, set up their
// authenticator app, then sign in. The link's token travels with each call; the server checks it every time.
import { AlertCircleIcon, CheckCircle2Icon, SmartphoneIcon } from 'lucide-react';
import { useActionState, useEffect, useRef, useState, useTransition } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import {
  acceptInvitationAction,
  type InvitationEnrolment,
  type InvitationState,
  startInvitationTotpAction,
} from '@/lib/actions/invitations';
import { TotpSecretPanel } from './totp-secret-panel';

type Enrolment = Extract<InvitationEnrolment, { ok: true }>;

const PASSWORD_FIELDS = [
  { name: 'newPassword', label: 'New password', hint: 'At least 12 characters.' },
  { name: 'confirmPassword', label: 'Repeat new password' },
] as const;

export interface InvitationFormProps {
  token: string;
  email: string;
  /** Their role approves requests and they have no second factor: they set up an authenticator app here. */
  needsFactor: boolean;
}

export function InvitationForm({ token, email, needsFactor }: InvitationFormProps) {
  const [state, dispatch, actionPending] = useActionState<InvitationState, FormData>(
    acceptInvitationAction,
    {},
  );
  const [submitting, startTransition] = useTransition();
  const [starting, startEnrolment] = useTransition();
  const pending = actionPending || submitting;
  // Controlled, and sent from onSubmit: React resets a form after its action prop runs, which would wipe what the
  // person typed whenever the server says no.
  const [values, setValues] = useState({ newPassword: '', confirmPassword: '', code: '' });
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [enrolError, setEnrolError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    const first = (['newPassword', 'confirmPassword', 'code'] as const).find((f) => state.fieldErrors?.[f]);
    if (first) formRef.current?.querySelector<HTMLElement>(`#${first}`)?.focus();
  }, [state]);

  if (state.done)
    return (
      <Alert role="status">
        <CheckCircle2Icon aria-hidden />
        <AlertTitle>Your account is ready</AlertTitle>
        <AlertDescription className="grid gap-2">
          <p>
            Sign in as {state.done.email} with your new password
            {state.done.withFactor ? ' and a code from your authenticator app' : ''}.
          </p>
          <Button asChild className="justify-self-start">
            <Link href="/sign-in">Sign in</Link>
          </Button>
        </AlertDescription>
      </Alert>
    );

  if (state.gone)
    return (
      <Alert variant="destructive" role="alert">
        <AlertCircleIcon aria-hidden />
        <AlertDescription className="grid gap-2">
          <p>{state.error}</p>
          <Link href="/sign-in" className="underline underline-offset-4">
            Go to sign-in
          </Link>
        </AlertDescription>
      </Alert>
    );

  const startApp = () =>
    startEnrolment(async () => {
      setEnrolError(null);
      const started = await startInvitationTotpAction({ token });
      if (started.ok) setEnrolment(started);
      else setEnrolError(started.error);
    });

  const codeError = state.fieldErrors?.code;
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
      <input type="hidden" name="token" value={token} />
      <Field id="invite-email" label="Email">
        <Input id="invite-email" type="email" autoComplete="username" value={email} readOnly />
      </Field>
      {PASSWORD_FIELDS.map((f) => {
        const error = state.fieldErrors?.[f.name];
        const hint = 'hint' in f ? f.hint : undefined;
        return (
          <Field key={f.name} id={f.name} label={f.label} error={error} hint={hint}>
            <Input
              id={f.name}
              name={f.name}
              type="password"
              autoComplete="new-password"
              required
              value={values[f.name]}
              onChange={(event) => setValues((v) => ({ ...v, [f.name]: event.target.value }))}
              aria-invalid={Boolean(error)}
              aria-describedby={error ? `${f.name}-error` : hint ? `${f.name}-hint` : undefined}
            />
          </Field>
        );
      })}
      {needsFactor ? (
        <section className="grid gap-3" aria-labelledby="invite-factor-heading">
          <h2 id="invite-factor-heading" className="text-base font-semibold">
            Authenticator app
          </h2>
          <p className="text-sm text-muted-foreground">
            Your role approves requests, so signing in needs a code from an authenticator app on your phone.
          </p>
          {enrolment ? (
            <>
              <input type="hidden" name="factorId" value={enrolment.factorId} />
              <TotpSecretPanel qrCode={enrolment.qrCode} secret={enrolment.secret} uri={enrolment.uri} />
              <Field
                id="code"
                label="Authentication code"
                error={codeError}
                hint="The 6-digit code your app shows now."
              >
                <Input
                  id="code"
                  name="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9]{6}"
                  maxLength={6}
                  required
                  value={values.code}
                  onChange={(event) => setValues((v) => ({ ...v, code: event.target.value }))}
                  aria-invalid={Boolean(codeError)}
                  aria-describedby={codeError ? 'code-error' : 'code-hint'}
                />
              </Field>
            </>
          ) : (
            <div className="grid gap-1">
              <Button type="button" variant="outline" onClick={startApp} disabled={starting || pending}>
                <SmartphoneIcon aria-hidden />
                Set up an authenticator app
              </Button>
              {enrolError || codeError ? (
                <p role="alert" className="text-xs font-medium text-destructive">
                  {enrolError ?? codeError}
                </p>
              ) : null}
            </div>
          )}
        </section>
      ) : null}
      <Button type="submit" disabled={pending}>
        {needsFactor ? 'Set password and finish' : 'Set password'}
      </Button>
    </form>
  );
}
