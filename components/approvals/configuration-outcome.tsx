'use client';
// What a configuration change left on its request page; for a new user, the one-time password, shown once to
// the admin who asked for the user (it is fetched on demand and then dropped by the server).
import { KeyRoundIcon } from 'lucide-react';
import { useState, useTransition } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { revealOneTimePasswordAction } from '@/lib/actions/users';
import type { ConfigurationResult } from '@/lib/approvals/configuration';

export interface ConfigurationOutcomeProps {
  requestId: string;
  result: ConfigurationResult | null;
  isRequester: boolean;
}

export function ConfigurationOutcome({ requestId, result, isRequester }: ConfigurationOutcomeProps) {
  const [password, setPassword] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  if (!result) return null;
  const waiting = result.oneTimePassword === 'waiting' && password === null;
  return (
    <Alert>
      <AlertTitle>Change made</AlertTitle>
      <AlertDescription className="grid gap-3">
        <p>{result.message}</p>
        {result.kind === 'userCreate' && waiting && isRequester ? (
          <div>
            <Button
              type="button"
              disabled={pending}
              onClick={() =>
                startTransition(async () => {
                  setError(null);
                  const shown = await revealOneTimePasswordAction({ requestId });
                  if (shown.ok) setPassword(shown.data.oneTimePassword);
                  else setError(shown.error);
                })
              }
            >
              <KeyRoundIcon aria-hidden /> Show the one-time password
            </Button>
            <p className="mt-1 text-sm text-muted-foreground">
              It is shown once: copy it before leaving the page.
            </p>
          </div>
        ) : null}
        {result.kind === 'userCreate' && waiting && !isRequester ? (
          <p>The one-time password is shown once, to the admin who asked for this user.</p>
        ) : null}
        {password ? (
          <div className="grid gap-1">
            <p>
              One-time password (give it to the person; they choose their own at first sign-in; it is not
              shown again):
            </p>
            <p className="flex items-center gap-2">
              <code className="rounded bg-muted px-2 py-1 font-mono" data-testid="one-time-password">
                {password}
              </code>
              <CopyButton value={password} label="Copy one-time password" />
            </p>
          </div>
        ) : null}
        {result.kind === 'userCreate' && result.oneTimePassword === 'shown' && password === null ? (
          <p>The one-time password was shown to the requester and is not kept.</p>
        ) : null}
        {error ? <p role="alert">{error}</p> : null}
      </AlertDescription>
    </Alert>
  );
}
