'use client';
// Sign-in's second step for people who approve: a code from their authenticator app or their passkey; with no
// factor yet, they enrol one here to finish signing in. The password is not asked again.
import { AlertCircleIcon, KeyRoundIcon, LoaderCircleIcon, SmartphoneIcon } from 'lucide-react';
import { useState } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { type SignInState, signInEnrolmentAction, signInPasskeyOptionsAction } from '@/lib/actions/auth';
import { TotpSecretPanel } from './totp-secret-panel';

export interface SecondFactorStepProps {
  state: SignInState;
  callbackUrl: string;
  pending: boolean;
  submit: (data: FormData) => void;
}

type Enrolment = { factorId: string; secret: string; uri: string; qrCode: string };

/** What a browser's WebAuthn refusal means to the person. */
export function passkeyProblem(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError')
    return 'The passkey request was cancelled or timed out.';
  if (name === 'InvalidStateError') return 'This passkey is already registered.';
  return 'This browser could not use a passkey here.';
}

export function SecondFactorStep({ state, callbackUrl, pending, submit }: SecondFactorStepProps) {
  const step = state.secondStep!;
  const enrolling = step.methods.length === 0;
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const error = problem ?? state.error;
  const codeError = state.fieldErrors?.code;

  const send = (fields: Record<string, string>) => {
    const data = new FormData();
    data.set('callbackUrl', callbackUrl);
    data.set('email', state.email ?? '');
    data.set('pendingId', step.pendingId);
    for (const [name, value] of Object.entries(fields)) data.set(name, value);
    submit(data);
  };

  const withPasskey = async () => {
    setProblem(null);
    setBusy(true);
    try {
      if (enrolling) {
        const started = await signInEnrolmentAction({ pendingId: step.pendingId, kind: 'passkey' });
        if (!started.ok || started.kind !== 'passkey') {
          setProblem(started.ok ? 'Try again.' : started.error);
          return;
        }
        const { startRegistration } = await import('@simplewebauthn/browser');
        const response = await startRegistration({ optionsJSON: started.options });
        send({ method: 'enrol-passkey', response: JSON.stringify(response), label: 'Passkey' });
      } else {
        const options = await signInPasskeyOptionsAction({ pendingId: step.pendingId });
        if (!options.ok) {
          setProblem(options.error);
          return;
        }
        const { startAuthentication } = await import('@simplewebauthn/browser');
        const response = await startAuthentication({ optionsJSON: options.options });
        send({ method: 'passkey', response: JSON.stringify(response) });
      }
    } catch (err) {
      setProblem(passkeyProblem(err));
    } finally {
      setBusy(false);
    }
  };

  const startApp = async () => {
    setProblem(null);
    setBusy(true);
    try {
      const started = await signInEnrolmentAction({ pendingId: step.pendingId, kind: 'totp' });
      if (!started.ok || started.kind !== 'totp') setProblem(started.ok ? 'Try again.' : started.error);
      else setEnrolment(started);
    } finally {
      setBusy(false);
    }
  };

  const codeForm = (method: 'totp' | 'enrol-totp') => (
    <form
      className="grid gap-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const code = String(new FormData(event.currentTarget).get('code') ?? '').trim();
        setProblem(null);
        send({ method, code, ...(enrolment ? { factorId: enrolment.factorId } : {}) });
      }}
    >
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
          autoFocus
          aria-invalid={Boolean(codeError)}
          aria-describedby={codeError ? 'code-error' : 'code-hint'}
        />
      </Field>
      <Button type="submit" disabled={pending || busy}>
        {pending ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : null}
        Verify
      </Button>
    </form>
  );

  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold">{enrolling ? 'Set up a second factor' : 'Second factor'}</h2>
        <p className="text-sm text-muted-foreground">
          {enrolling
            ? 'You approve requests, so signing in needs a second factor. Set one up now to finish signing in.'
            : `Signing in as ${state.email ?? 'you'}. Confirm it is you with your authenticator app or passkey.`}
        </p>
      </div>
      {error ? (
        <Alert variant="destructive" role="alert">
          <AlertCircleIcon aria-hidden />
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
      {enrolling ? (
        enrolment ? (
          <>
            <TotpSecretPanel qrCode={enrolment.qrCode} secret={enrolment.secret} uri={enrolment.uri} />
            {codeForm('enrol-totp')}
          </>
        ) : (
          <div className="grid gap-2">
            <Button type="button" onClick={startApp} disabled={busy || pending}>
              <SmartphoneIcon aria-hidden />
              Set up an authenticator app
            </Button>
            <Button type="button" variant="outline" onClick={withPasskey} disabled={busy || pending}>
              <KeyRoundIcon aria-hidden />
              Use a passkey
            </Button>
          </div>
        )
      ) : (
        <>
          {step.methods.includes('totp') ? codeForm('totp') : null}
          {step.methods.includes('passkey') ? (
            <Button type="button" variant="outline" onClick={withPasskey} disabled={busy || pending}>
              <KeyRoundIcon aria-hidden />
              Use passkey
            </Button>
          ) : null}
        </>
      )}
      <Button asChild variant="link" className="justify-self-start px-0">
        <a href={`/sign-in${callbackUrl !== '/' ? `?callbackUrl=${encodeURIComponent(callbackUrl)}` : ''}`}>
          Start over
        </a>
      </Button>
    </div>
  );
}
