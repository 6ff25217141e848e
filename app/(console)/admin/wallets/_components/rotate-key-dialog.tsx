'use client';
import { KeyRoundIcon } from 'lucide-react';
import { useState, useTransition } from 'react';
import { toast } from 'sonner';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { rotateWalletKeySchema } from '@/lib/validation/wallets';
import { rotateWalletKeyAction } from '../actions';

/** Replaces a wallet's key with a new one, verified first; the old key keeps verifying webhooks for 24 hours. */
export function RotateKeyDialog({ walletId, walletName }: { walletId: string; walletName: string }) {
  const [open, setOpen] = useState(false);
  const [apiKey, setApiKey] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const inputId = `rotate-key-${walletId}`;

  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setApiKey('');
      setFieldError(null);
      setError(null);
    }
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    const parsed = rotateWalletKeySchema.safeParse({ walletId, apiKey });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Check the key');
      return;
    }
    setFieldError(null);
    startTransition(async () => {
      const result = await rotateWalletKeyAction(parsed.data);
      setApiKey('');
      if (!result.ok) {
        setError(result.error);
        return;
      }
      toast.success(`Key of ${walletName} rotated (now ending ${result.data.apiKeyLast4})`);
      close(false);
    });
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Rotate key of ${walletName}`}>
          <KeyRoundIcon aria-hidden />
          Rotate key
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Rotate the key of {walletName}</DialogTitle>
            <DialogDescription>
              The new key is checked against the custody service before it replaces the current one. The
              current key keeps verifying webhooks for 24 hours.
            </DialogDescription>
          </DialogHeader>
          {error ? (
            <Alert variant="destructive">
              <AlertDescription>{error}</AlertDescription>
            </Alert>
          ) : null}
          <Field id={inputId} label="New API key" error={fieldError ?? undefined}>
            <Input
              id={inputId}
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={apiKey}
              onChange={(e) => setApiKey(e.target.value)}
              aria-invalid={Boolean(fieldError)}
            />
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? 'Checking the key…' : 'Rotate key'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
