'use client';
// What a configuration change left on its request page; for a new user, the one-time password, shown once to
// the admin who asked for the user (it is fetched on demand and then dropped by the server).
import { KeyRoundIcon } from 'lucide-react';
import { useState, useTransition } from 'react';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { revealServiceTokenAction } from '@/lib/actions/service-tokens';
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
        {result.tokenSecret ? (
          <TokenSecret requestId={requestId} state={result.tokenSecret} isRequester={isRequester} />
        ) : null}
        {error ? <p role="alert">{error}</p> : null}
      </AlertDescription>
    </Alert>
  );
}

/** A new or rotated API token: shown once to the admin who asked for it, fetched on demand and then dropped. */
function TokenSecret({
  requestId,
  state,
  isRequester,
}: {
  requestId: string;
  state: 'waiting' | 'shown';
  isRequester: boolean;
}) {
  const [secret, setSecret] = useState<{ token: string; webhookSecret: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const stepUp = useStepUp();
  if (secret)
    return (
      <div className="grid gap-2">
        <p>The token (give it to the system; it is not shown again):</p>
        <p className="flex items-center gap-2">
          <code className="min-w-0 break-all rounded bg-muted px-2 py-1 font-mono" data-testid="api-token">
            {secret.token}
          </code>
          <CopyButton value={secret.token} label="Copy the token" />
        </p>
        {secret.webhookSecret ? (
          <>
            <p>Webhook signing secret (the system checks X-Console-Signature with it):</p>
            <p className="flex items-center gap-2">
              <code
                className="min-w-0 break-all rounded bg-muted px-2 py-1 font-mono"
                data-testid="api-webhook-secret"
              >
                {secret.webhookSecret}
              </code>
              <CopyButton value={secret.webhookSecret} label="Copy the webhook secret" />
            </p>
          </>
        ) : null}
      </div>
    );
  if (state === 'shown')
    return isRequester ? (
      <p>The token was shown to you once and is not kept. If it was lost, ask for a new secret.</p>
    ) : (
      <p>The token was shown to the admin who asked for it and is not kept.</p>
    );
  if (!isRequester) return <p>The token is shown once, to the admin who asked for it.</p>;
  return (
    <div>
      <Button
        type="button"
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            setError(null);
            const shown = await stepUp.withStepUp(() => revealServiceTokenAction({ requestId }));
            if (shown.ok) setSecret(shown.data);
            else setError(shown.error);
          })
        }
      >
        <KeyRoundIcon aria-hidden /> Show the token
      </Button>
      <p className="mt-1 text-sm text-muted-foreground">It is shown once: copy it before leaving the page.</p>
      {error ? <p role="alert">{error}</p> : null}
      {stepUp.dialog}
    </div>
  );
}
