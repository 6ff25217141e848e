'use client';
// "Confirm it is you": the second factor again, for one decision whose payload hash the server named.
import { KeyRoundIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { passkeyProblem } from '@/components/auth/second-factor-step';
import { lazyZodResolver } from '@/components/forms/lazy-zod-resolver';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { stepUpPasskeyOptionsAction, verifyStepUpAction } from '@/lib/actions/factors';
import type { stepUpCodeSchema } from '@/lib/validation/factors';

const stepUpCodeResolver = lazyZodResolver(() =>
  import('@/lib/validation/factors').then((m) => m.stepUpCodeSchema),
);

type CodeValues = z.input<typeof stepUpCodeSchema>;

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
  const [error, setError] = useState<string | null>(null);
  // Not a transition: the decision that asked for the check is itself a pending transition waiting on this
  // dialog, and React would keep this one pending with it (the Confirm button would never come back).
  const [pending, setPending] = useState(false);
  const startTransition = (work: () => Promise<unknown>) => {
    setPending(true);
    void work().finally(() => setPending(false));
  };
  const form = useForm<CodeValues>({ resolver: stepUpCodeResolver, defaultValues: { code: '' } });
  const codeError = form.formState.errors.code?.message;

  const finish = (confirmed: boolean) => {
    form.reset({ code: '' });
    setError(null);
    onDone(confirmed);
  };

  const onSubmit = form.handleSubmit((values) => {
    if (!payloadHash) return;
    setError(null);
    startTransition(async () => {
      const result = await verifyStepUpAction({ payloadHash, code: values.code });
      if (result.ok) return finish(true);
      form.setValue('code', '');
      if (result.fieldErrors?.code) form.setError('code', { message: result.fieldErrors.code });
      else setError(result.error);
    });
  });

  const confirmWithPasskey = () => {
    if (!payloadHash) return;
    setError(null);
    startTransition(async () => {
      const options = await stepUpPasskeyOptionsAction({ payloadHash });
      if (!options.ok) return setError(options.error);
      let assertion: unknown;
      try {
        // The WebAuthn helpers load on first use: most people confirm with a code.
        const { startAuthentication } = await import('@simplewebauthn/browser');
        assertion = await startAuthentication({ optionsJSON: options.data.options });
      } catch (err) {
        return setError(passkeyProblem(err));
      }
      const result = await verifyStepUpAction({
        payloadHash,
        challengeId: options.data.challengeId,
        assertion,
      });
      if (result.ok) return finish(true);
      setError(result.error);
    });
  };

  return (
    <Dialog open={payloadHash !== null} onOpenChange={(open) => (open ? undefined : finish(false))}>
      <DialogContent>
        <form
          onSubmit={(event) => {
            // React carries a submit through the portal to the components around this dialog: a form that
            // renders it (the one whose action asked for the check) must not be submitted a second time.
            event.stopPropagation();
            void onSubmit(event);
          }}
          className="grid gap-4"
          noValidate
        >
          <DialogHeader>
            <DialogTitle>Confirm it is you</DialogTitle>
            <DialogDescription>
              {each
                ? 'Every decision asks for your second factor, and this check serves this decision only.'
                : 'Changes like this one ask for your second factor again after 5 minutes.'}{' '}
              Enter the code your authenticator app shows, or use your passkey. This check is recorded in the
              audit log.
            </DialogDescription>
          </DialogHeader>
          {error ? (
            <Alert variant="destructive">
              <AlertDescription>{error}</AlertDescription>
            </Alert>
          ) : null}
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
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => finish(false)}>
              Cancel
            </Button>
            <Button type="button" variant="outline" onClick={confirmWithPasskey} disabled={pending}>
              <KeyRoundIcon aria-hidden />
              Use passkey
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? 'Checking…' : 'Confirm'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
