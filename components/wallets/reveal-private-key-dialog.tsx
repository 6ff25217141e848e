'use client';
import { KeyRoundIcon } from 'lucide-react';
import { useState } from 'react';
import type { z } from 'zod';
import { FormDialog } from '@/components/forms/form-dialog';
import { useActionForm } from '@/components/forms/use-action-form';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { revealPrivateKeyAction } from '@/lib/actions/addresses';
import type { revealPrivateKeySchema } from '@/lib/validation/wallets';

const loadRevealPrivateKeySchema = () =>
  import('@/lib/validation/wallets').then((m) => m.revealPrivateKeySchema);

type RevealValues = z.input<typeof revealPrivateKeySchema>;

export interface RevealPrivateKeyDialogProps {
  walletId: string;
  addressId: string;
  addressName: string;
  /** The approved request to see the key. */
  requestId: string;
  /** The key is on screen: the page keeps this dialog open, whatever it learns meanwhile, until it is closed. */
  onRevealed?: () => void;
  /** The key was shown (or could not be): the page reads the request anew. */
  onDone?: () => void;
}

/**
 * The admin whose request a second admin approved re-enters the password, then the key is shown once. It lives in
 * this component's state only (no query cache, no storage) and is forgotten when the dialog closes.
 */
export function RevealPrivateKeyDialog({
  walletId,
  addressId,
  addressName,
  requestId,
  onRevealed,
  onDone,
}: RevealPrivateKeyDialogProps) {
  const [open, setOpen] = useState(false);
  const [revealed, setRevealed] = useState<string | null>(null);
  const stepUp = useStepUp();
  const empty: RevealValues = { walletId, addressId, password: '', requestId };
  const { form, onSubmit, pending, banner, reset } = useActionForm(
    async (values) => {
      const result = await stepUp.withStepUp(() => revealPrivateKeyAction(values));
      form.setValue('password', '');
      return result;
    },
    {
      schema: loadRevealPrivateKeySchema,
      defaultValues: empty,
      fields: ['password'],
      fieldErrorsOnly: true,
      onSuccess: (data) => {
        setRevealed(data.privateKey);
        onRevealed?.();
      },
    },
  );
  const passwordError = form.formState.errors.password?.message;

  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      if (revealed) onDone?.();
      setRevealed(null);
      reset(empty);
    }
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={close}
      trigger={
        <Button variant="destructive">
          <KeyRoundIcon aria-hidden />
          Show the private key
        </Button>
      }
      title="Reveal private key"
      description={`Re-enter your password to reveal the private key of ${addressName}. This is recorded in the audit log.`}
      banner={banner}
      onSubmit={onSubmit}
      submitLabel="Reveal"
      pendingLabel="Checking…"
      submitVariant="destructive"
      pending={pending}
      onCancel={() => close(false)}
      done={
        revealed
          ? {
              title: `Private key of ${addressName}`,
              description:
                'Shown once. Anyone with this key controls the address’s funds. It is not stored; closing this dialog forgets it.',
              content: (
                <div className="flex items-center gap-2">
                  <code
                    data-testid="private-key"
                    className="flex-1 break-all rounded-md bg-muted px-3 py-2 font-mono text-xs"
                  >
                    {revealed}
                  </code>
                  <CopyButton value={revealed} label="Copy private key" className="size-9" />
                </div>
              ),
              onDone: () => close(false),
            }
          : null
      }
      after={stepUp.dialog}
    >
      <Field id="reveal-password" label="Your password" error={passwordError}>
        <Input
          id="reveal-password"
          type="password"
          autoComplete="current-password"
          aria-invalid={Boolean(passwordError)}
          aria-describedby={passwordError ? 'reveal-password-error' : undefined}
          {...form.register('password')}
        />
      </Field>
    </FormDialog>
  );
}
