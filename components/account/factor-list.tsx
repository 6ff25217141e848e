'use client';
import { KeyRoundIcon, SmartphoneIcon } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { forgetStepUpAction, removeFactorAction } from '@/lib/actions/factors';
import { formatDateTime } from '@/lib/format';

export interface FactorRow {
  id: string;
  kind: 'totp' | 'passkey';
  label: string;
  confirmed: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface FactorListProps {
  factors: FactorRow[];
}

export function FactorList({ factors }: FactorListProps) {
  const router = useRouter();
  const stepUp = useStepUp();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const remove = (factor: FactorRow) =>
    startTransition(async () => {
      setError(null);
      setNotice(null);
      const result = await stepUp.withStepUp(() => removeFactorAction({ factorId: factor.id }));
      if (!result.ok) return setError(result.error);
      setNotice(`Removed ${result.data.label}.`);
      router.refresh();
    });

  const askAgain = () =>
    startTransition(async () => {
      setError(null);
      const result = await forgetStepUpAction(undefined);
      if (!result.ok) return setError(result.error);
      setNotice('Your next change asks for your second factor (every decision always does).');
    });

  return (
    <section className="grid gap-3" aria-labelledby="factors-heading">
      {stepUp.dialog}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="factors-heading" className="text-lg font-semibold">
          Second factors
        </h2>
        <Button type="button" variant="outline" size="sm" onClick={askAgain} disabled={pending}>
          Ask for my second factor again
        </Button>
      </div>
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
      {factors.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No second factor yet. Add an authenticator app or a passkey below.
        </p>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead className="hidden sm:table-cell">Kind</TableHead>
              <TableHead className="hidden sm:table-cell">Added</TableHead>
              <TableHead className="hidden sm:table-cell">Last used</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {factors.map((f) => (
              <TableRow key={f.id}>
                <TableCell className="font-medium">
                  {f.label}{' '}
                  {f.confirmed ? null : (
                    <Badge variant="outline" className="ml-1">
                      Not confirmed
                    </Badge>
                  )}
                  {/* On a phone the other columns would push the button off screen: their values go here. */}
                  <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-xs font-normal text-muted-foreground sm:hidden">
                    <dt className="sr-only">Kind</dt>
                    <dd className="col-span-2">
                      <FactorKind kind={f.kind} />
                    </dd>
                    <dt>Added</dt>
                    <dd>{formatDateTime(f.createdAt)}</dd>
                    <dt>Last used</dt>
                    <dd>{f.lastUsedAt ? formatDateTime(f.lastUsedAt) : 'Never'}</dd>
                  </dl>
                </TableCell>
                <TableCell className="hidden sm:table-cell">
                  <FactorKind kind={f.kind} />
                </TableCell>
                <TableCell className="hidden sm:table-cell">{formatDateTime(f.createdAt)}</TableCell>
                <TableCell className="hidden sm:table-cell">
                  {f.lastUsedAt ? formatDateTime(f.lastUsedAt) : 'Never'}
                </TableCell>
                <TableCell className="text-right">
                  <ConfirmDialog
                    trigger={
                      <Button variant="outline" size="sm" disabled={pending} aria-label={`Remove ${f.label}`}>
                        Remove
                      </Button>
                    }
                    title={`Remove ${f.label}?`}
                    description="You will no longer be able to sign in or confirm decisions with it. This is recorded in the audit log."
                    confirmLabel="Remove"
                    onConfirm={async () => {
                      remove(f);
                      return true;
                    }}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}

function FactorKind({ kind }: { kind: FactorRow['kind'] }) {
  return (
    <span className="inline-flex items-center gap-1">
      {kind === 'passkey' ? (
        <KeyRoundIcon className="size-4" aria-hidden />
      ) : (
        <SmartphoneIcon className="size-4" aria-hidden />
      )}
      {kind === 'passkey' ? 'Passkey' : 'Authenticator app'}
    </span>
  );
}
