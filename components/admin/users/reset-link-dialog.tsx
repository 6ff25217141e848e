'use client';
// "Send a reset link": a request a second admin approves. Once approved, the person's password (and, if chosen,
// their second factors) stop working and a link to choose new ones goes to their own address; nobody else sees it.
import { useState, useTransition } from 'react';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { useStepUp } from '@/components/step-up/use-step-up';
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
import { type RequestedChange, requestResetLinkAction } from '@/lib/actions/users';
import type { UserResetScope } from '@/lib/approvals/configuration';

const SCOPES: Array<{ scope: UserResetScope; label: string; detail: string }> = [
  {
    scope: 'password',
    label: 'Password only',
    detail: 'They forgot it. Their authenticator app or passkey stays and is asked for at sign-in.',
  },
  {
    scope: 'password-and-factors',
    label: 'Password and second factors',
    detail: 'They lost their phone or key too. They set up a new authenticator app at the link.',
  },
];

export interface ResetLinkDialogProps {
  userId: string;
  name: string;
  email: string;
  /** Why reset links cannot be sent from this console (no mail server), if so. */
  problem: string | null;
}

export function ResetLinkDialog({ userId, name, email, problem }: ResetLinkDialogProps) {
  const [open, setOpen] = useState(false);
  const [scope, setScope] = useState<UserResetScope>('password');
  const [error, setError] = useState<string | null>(problem);
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const [pending, startTransition] = useTransition();
  const stepUp = useStepUp();

  const confirm = () => {
    setError(null);
    startTransition(async () => {
      const result = await stepUp.withStepUp(() => requestResetLinkAction({ userId, scope }));
      if (!result.ok) setError(result.error);
      else setRequested(result.data);
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (pending) return;
        setOpen(next);
        if (!next) {
          setError(problem);
          setRequested(null);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          Send a reset link<span className="sr-only"> to {name}</span>
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Send {name} a reset link</DialogTitle>
          <DialogDescription>
            Another admin approves it. Then what you reset stops working at once, {email}’s open sessions end,
            and a link to choose new ones goes to {email}. Nobody else sees it.
          </DialogDescription>
        </DialogHeader>
        {error ? (
          <Alert variant="destructive">
            <AlertDescription>{error}</AlertDescription>
          </Alert>
        ) : null}
        {requested ? (
          <>
            <RequestedChangeNotice change={requested} />
            <DialogFooter>
              <Button type="button" onClick={() => setOpen(false)}>
                Done
              </Button>
            </DialogFooter>
          </>
        ) : (
          <>
            <fieldset className="grid gap-3">
              <legend className="mb-2 text-sm font-medium">What the link resets</legend>
              {SCOPES.map((s) => (
                <label key={s.scope} className="flex items-start gap-2 text-sm">
                  <input
                    type="radio"
                    name="reset-scope"
                    value={s.scope}
                    checked={scope === s.scope}
                    onChange={() => setScope(s.scope)}
                    className="mt-1"
                  />
                  <span>
                    <span className="font-medium">{s.label}</span>
                    <span className="block text-muted-foreground">{s.detail}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(false)} disabled={pending}>
                Cancel
              </Button>
              <Button type="button" onClick={confirm} disabled={pending || Boolean(problem)}>
                {pending ? 'Requesting…' : 'Request a reset link'}
              </Button>
            </DialogFooter>
          </>
        )}
        {stepUp.dialog}
      </DialogContent>
    </Dialog>
  );
}
