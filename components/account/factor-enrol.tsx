'use client';
// Adding a second factor: an authenticator app (QR code and secret shown once, confirmed with a first code) or
// a passkey (the browser's own prompt). With a factor already there, it asks for that one first (step-up).
import { KeyRoundIcon, SmartphoneIcon } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { passkeyProblem } from '@/components/auth/second-factor-step';
import { TotpSecretPanel } from '@/components/auth/totp-secret-panel';
import { lazyZodResolver } from '@/components/forms/lazy-zod-resolver';
import { showFieldErrors } from '@/components/forms/show-field-errors';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import {
  confirmTotpEnrolmentAction,
  finishPasskeyEnrolmentAction,
  startPasskeyEnrolmentAction,
  startTotpEnrolmentAction,
  type TotpEnrolment,
} from '@/lib/actions/factors';
import type { factorLabelSchema, stepUpCodeSchema } from '@/lib/validation/factors';

const factorLabelResolver = lazyZodResolver(() =>
  import('@/lib/validation/factors').then((m) => m.factorLabelSchema),
);
const stepUpCodeResolver = lazyZodResolver(() =>
  import('@/lib/validation/factors').then((m) => m.stepUpCodeSchema),
);

type LabelValues = z.input<typeof factorLabelSchema>;
type CodeValues = z.input<typeof stepUpCodeSchema>;

export function FactorEnrol() {
  const router = useRouter();
  const stepUp = useStepUp();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const labelForm = useForm<LabelValues>({
    resolver: factorLabelResolver,
    defaultValues: { label: '' },
  });
  const codeForm = useForm<CodeValues>({
    resolver: stepUpCodeResolver,
    defaultValues: { code: '' },
  });
  const labelError = labelForm.formState.errors.label?.message;
  const codeError = codeForm.formState.errors.code?.message;

  const begin = () => {
    setError(null);
    setNotice(null);
  };

  const addApp = labelForm.handleSubmit((values) =>
    startTransition(async () => {
      begin();
      const result = await stepUp.withStepUp(() => startTotpEnrolmentAction(values));
      if (!result.ok) return setError(result.error);
      setEnrolment(result.data);
    }),
  );

  const addPasskey = labelForm.handleSubmit((values) =>
    startTransition(async () => {
      begin();
      const started = await stepUp.withStepUp(() => startPasskeyEnrolmentAction(undefined));
      if (!started.ok) return setError(started.error);
      let response: unknown;
      try {
        const { startRegistration } = await import('@simplewebauthn/browser');
        response = await startRegistration({ optionsJSON: started.data.options });
      } catch (err) {
        return setError(passkeyProblem(err));
      }
      const finished = await finishPasskeyEnrolmentAction({
        challengeId: started.data.challengeId,
        label: values.label,
        response,
      });
      if (!finished.ok) return setError(finished.error);
      labelForm.reset({ label: '' });
      setNotice(`Added the passkey ${values.label}.`);
      router.refresh();
    }),
  );

  const confirmApp = codeForm.handleSubmit((values) =>
    startTransition(async () => {
      if (!enrolment) return;
      begin();
      const result = await confirmTotpEnrolmentAction({ factorId: enrolment.factorId, code: values.code });
      codeForm.reset({ code: '' });
      if (!result.ok) {
        showFieldErrors(codeForm, result.fieldErrors, { fields: ['code'] });
        return setError(result.error);
      }
      setEnrolment(null);
      labelForm.reset({ label: '' });
      setNotice('Added the authenticator app.');
      router.refresh();
    }),
  );

  return (
    <section className="grid gap-3 rounded-md border p-4" aria-labelledby="add-factor-heading">
      {stepUp.dialog}
      <h2 id="add-factor-heading" className="text-lg font-semibold">
        Add a second factor
      </h2>
      {error ? (
        <Alert variant="destructive">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
      {notice ? (
        <p role="status" className="text-sm text-muted-foreground">
          {notice}
        </p>
      ) : null}
      {enrolment ? (
        <form onSubmit={confirmApp} className="grid gap-3" noValidate>
          <TotpSecretPanel qrCode={enrolment.qrCode} secret={enrolment.secret} uri={enrolment.uri} />
          <Field
            id="enrol-code"
            label="Code from the app"
            error={codeError}
            hint="The 6-digit code the app shows now."
          >
            <Input
              id="enrol-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              aria-invalid={Boolean(codeError)}
              aria-describedby={codeError ? 'enrol-code-error' : 'enrol-code-hint'}
              {...codeForm.register('code')}
            />
          </Field>
          <div className="flex gap-2">
            <Button type="submit" disabled={pending}>
              Confirm
            </Button>
            <Button type="button" variant="outline" onClick={() => setEnrolment(null)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <form className="grid gap-3" noValidate onSubmit={addApp}>
          <Field
            id="factor-label"
            label="Name"
            error={labelError}
            hint="So you can tell them apart, e.g. “Work phone”."
          >
            <Input
              id="factor-label"
              maxLength={60}
              aria-invalid={Boolean(labelError)}
              aria-describedby={labelError ? 'factor-label-error' : 'factor-label-hint'}
              {...labelForm.register('label')}
            />
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={pending}>
              <SmartphoneIcon aria-hidden />
              Add authenticator app
            </Button>
            <Button type="button" variant="outline" disabled={pending} onClick={addPasskey}>
              <KeyRoundIcon aria-hidden />
              Add passkey
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
