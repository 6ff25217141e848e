'use client';
// What a configuration change left on its request page. A new user or a reset emailed the person a link (its state
// here, never the link); an API token's secret is shown once to the admin who asked for it: fetched on demand,
// then dropped by the server; an approved private key reveal lets the asker read the key once from the service.
import { KeyRoundIcon } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useState, useTransition } from 'react';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { revealServiceTokenAction } from '@/lib/actions/service-tokens';
import type { ConfigurationResult } from '@/lib/approvals/configuration';
import { InvitationOutcomeView } from './invitation-outcome';

// Its form loads only on the one page that offers it: an approved reveal, seen by the admin who asked.
const RevealPrivateKeyDialog = lazy(() =>
  import('@/components/wallets/reveal-private-key-dialog').then((m) => ({
    default: m.RevealPrivateKeyDialog,
  })),
);

export interface ConfigurationOutcomeProps {
  requestId: string;
  result: ConfigurationResult | null;
  isRequester: boolean;
  /** A link was sent again: the page reads the request anew. */
  onChanged: () => void;
}

export function ConfigurationOutcome({
  requestId,
  result,
  isRequester,
  onChanged,
}: ConfigurationOutcomeProps) {
  if (!result) return null;
  return (
    <Alert>
      <AlertTitle>Change made</AlertTitle>
      <AlertDescription className="grid gap-3">
        <p>{result.message}</p>
        {result.invitation && result.userId ? (
          <InvitationOutcomeView
            userId={result.userId}
            purpose={result.kind === 'userReset' ? 'reset' : 'invitation'}
            sent={result.invitation}
            status={result.invitationStatus ?? null}
            onResent={onChanged}
          />
        ) : null}
        {result.privateKey && result.walletId && result.addressId ? (
          <PrivateKeyOutcome
            requestId={requestId}
            result={result}
            isRequester={isRequester}
            onChanged={onChanged}
          />
        ) : null}
        {result.tokenSecret ? (
          <ShownOnce
            state={result.tokenSecret}
            isRequester={isRequester}
            what="token"
            whoAsked="the admin who asked for it"
            lost="If it was lost, ask for a new secret."
            reveal={() => revealServiceTokenAction({ requestId })}
          >
            {({ token, webhookSecret }) => (
              <>
                <SecretValue
                  intro="The token (give it to the system; it is not shown again):"
                  value={token}
                  copyLabel="Copy the token"
                  testId="api-token"
                />
                {webhookSecret ? (
                  <SecretValue
                    intro="Webhook signing secret (the system checks X-Console-Signature with it):"
                    value={webhookSecret}
                    copyLabel="Copy the webhook secret"
                    testId="api-webhook-secret"
                  />
                ) : null}
              </>
            )}
          </ShownOnce>
        ) : null}
      </AlertDescription>
    </Alert>
  );
}

/** An approved private key reveal: the asker sees the key once, within its time, on this page. */
function PrivateKeyOutcome({
  requestId,
  result,
  isRequester,
  onChanged,
}: {
  requestId: string;
  result: ConfigurationResult;
  isRequester: boolean;
  onChanged: () => void;
}) {
  const label = result.addressLabel ?? 'the address';
  // The key on screen stays there until its dialog is closed, though the request, read anew meanwhile, says shown.
  const [showing, setShowing] = useState(false);
  if (result.privateKey === 'shown' && !showing)
    return (
      <p>The private key of {label} was shown once to the admin who asked. Ask again if it is needed.</p>
    );
  if (!isRequester) return <p>The private key of {label} is shown once, to the admin who asked for it.</p>;
  if (!showing && result.revealUntil && Date.parse(result.revealUntil) <= Date.now())
    return <p>The time to see the private key of {label} has passed. Ask again if it is needed.</p>;
  return (
    <div>
      <Suspense fallback={<p>Loading…</p>}>
        <RevealPrivateKeyDialog
          walletId={result.walletId!}
          addressId={result.addressId!}
          addressName={label}
          requestId={requestId}
          onRevealed={() => setShowing(true)}
          onDone={() => {
            setShowing(false);
            onChanged();
          }}
        />
      </Suspense>
      <p className="mt-1 text-sm text-muted-foreground">
        It is shown once: copy it before closing the dialog.
      </p>
    </div>
  );
}

type Revealed<T> = { ok: true; data: T } | { ok: false; error: string; stepUp?: { payloadHash: string } };

interface ShownOnceProps<T> {
  state: 'waiting' | 'shown';
  isRequester: boolean;
  /** "token". */
  what: string;
  whoAsked: string;
  /** What to do once it is gone. */
  lost: string;
  reveal: () => Promise<Revealed<T>>;
  children: (secret: T) => ReactNode;
}

/** A secret the server keeps until the requester has seen it once (after a fresh second factor). */
function ShownOnce<T>({ state, isRequester, what, whoAsked, lost, reveal, children }: ShownOnceProps<T>) {
  const [secret, setSecret] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const stepUp = useStepUp();
  if (secret) return <div className="grid gap-2">{children(secret)}</div>;
  if (state === 'shown')
    return isRequester ? (
      <p>
        The {what} was shown to you once and is not kept. {lost}
      </p>
    ) : (
      <p>
        The {what} was shown to {whoAsked} and is not kept.
      </p>
    );
  if (!isRequester)
    return (
      <p>
        The {what} is shown once, to {whoAsked}.
      </p>
    );
  return (
    <div>
      <Button
        type="button"
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            setError(null);
            const shown = await stepUp.withStepUp(reveal);
            if (shown.ok) setSecret(shown.data);
            else setError(shown.error);
          })
        }
      >
        <KeyRoundIcon aria-hidden /> Show the {what}
      </Button>
      <p className="mt-1 text-sm text-muted-foreground">It is shown once: copy it before leaving the page.</p>
      {error ? <p role="alert">{error}</p> : null}
      {stepUp.dialog}
    </div>
  );
}

function SecretValue({
  intro,
  value,
  copyLabel,
  testId,
}: {
  intro: string;
  value: string;
  copyLabel: string;
  testId: string;
}) {
  return (
    <div className="grid gap-1">
      <p>{intro}</p>
      <p className="flex items-center gap-2">
        <code className="min-w-0 break-all rounded bg-muted px-2 py-1 font-mono" data-testid={testId}>
          {value}
        </code>
        <CopyButton value={value} label={copyLabel} />
      </p>
    </div>
  );
}
