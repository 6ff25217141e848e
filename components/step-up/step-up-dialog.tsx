'use client';
// "Confirm it is you": the second factor again, for one decision whose payload hash the server named.
import { KeyRoundIcon } from 'lucide-react';
import { passkeyProblem } from '@/components/auth/second-factor-step';
import { FormDialog } from '@/components/forms/form-dialog';
import { useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { stepUpPasskeyOptionsAction, verifyStepUpAction } from '@/lib/actions/factors';

const loadStepUpCodeSchema = () => import('@/lib/validation/factors').then((m) => m.stepUpCodeSchema);

export interface StepUpDialogProps {
  /**
   * What the server asked for: the payload hash the check is bound to, and whether it serves one decision only
   * (`each`); null: closed.
   */
  asked: { payloadHash: string; each?: boolean } | null;
  onDone: (confirmed: boolean) => void;
}

export function StepUpDialog({ asked, onDone }: StepUpDialogProps) {
  const payloadHash = asked?.payloadHash ?? null;
  const each = asked?.each === true;
  const { form, onSubmit, pending, banner, setBanner, run, reset } = useActionForm(
    async (values: { code: string }) => {
      const result = await verifyStepUpAction({ payloadHash: payloadHash ?? '', code: values.code });
      if (!result.ok) form.setValue('code', '');
      return result;
    },
    {
      schema: loadStepUpCodeSchema,
      defaultValues: { code: '' },
      fields: ['code'],
      fieldErrorsOnly: true,
      // Not a transition: the decision that asked for the check is itself a pending transition waiting on this
      // dialog, and React would keep this one pending with it (the Confirm button would never come back).
      withoutTransition: true,
      onSuccess: () => finish(true),
    },
  );
  const codeError = form.formState.errors.code?.message;

  const finish = (confirmed: boolean) => {
    reset({ code: '' });
    onDone(confirmed);
  };

  const confirmWithPasskey = () => {
    if (!payloadHash) return;
    setBanner(null);
    run(async () => {
      const options = await stepUpPasskeyOptionsAction({ payloadHash });
      if (!options.ok) return setBanner(options.error);
      let assertion: unknown;
      try {
        // The WebAuthn helpers load on first use: most people confirm with a code.
        const { startAuthentication } = await import('@simplewebauthn/browser');
        assertion = await startAuthentication({ optionsJSON: options.data.options });
      } catch (err) {
        return setBanner(passkeyProblem(err));
      }
      const result = await verifyStepUpAction({
        payloadHash,
        challengeId: options.data.challengeId,
        assertion,
      });
      if (result.ok) return finish(true);
      setBanner(result.error);
    });
  };

  return (
    <FormDialog
      open={payloadHash !== null}
      onOpenChange={(open) => (open ? undefined : finish(false))}
      title="Confirm it is you"
      description={`${
        each
          ? 'Every decision asks for your second factor, and this check serves this decision only.'
          : 'Changes like this one ask for your second factor again after 5 minutes.'
      } Enter the code your authenticator app shows, or use your passkey. This check is recorded in the audit log.`}
      banner={banner}
      onSubmit={(event) => {
        // React carries a submit through the portal to the components around this dialog: a form that
        // renders it (the one whose action asked for the check) must not be submitted a second time.
        event.stopPropagation();
        if (payloadHash) void onSubmit(event);
        else event.preventDefault();
      }}
      submitLabel="Confirm"
      pendingLabel="Checking…"
      pending={pending}
      onCancel={() => finish(false)}
      actions={
        <Button type="button" variant="outline" onClick={confirmWithPasskey} disabled={pending}>
          <KeyRoundIcon aria-hidden />
          Use passkey
        </Button>
      }
    >
      <Field id="step-up-code" label="Authentication code" error={codeError}>
        <Input
          id="step-up-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          autoFocus
          aria-invalid={Boolean(codeError)}
          aria-describedby={codeError ? 'step-up-code-error' : undefined}
          {...form.register('code')}
        />
      </Field>
    </FormDialog>
  );
}
