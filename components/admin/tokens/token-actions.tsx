'use client';
// A token's row actions: a new secret (a second admin approves) and revoking (at once, after a confirmation that
// names the token).
import { BanIcon, KeyRoundIcon } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { revokeServiceTokenAction, rotateServiceTokenAction } from '@/lib/actions/service-tokens';
import type { RequestedChange } from '@/lib/actions/users';

export function TokenActions({ tokenId, name, active }: { tokenId: string; name: string; active: boolean }) {
  const router = useRouter();
  const stepUp = useStepUp();
  const [error, setError] = useState<string | null>(null);
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  if (!active) return null;
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <ConfirmDialog
        trigger={
          <Button variant="outline" size="sm" aria-label={`New secret for ${name}`}>
            <KeyRoundIcon aria-hidden />
            New secret
          </Button>
        }
        title={`New secret for ${name}`}
        description="A second admin approves it. The current secret stops working as soon as the new one is made; the new one is shown to you once, on the request page."
        confirmLabel="Request a new secret"
        error={error}
        onOpenChange={(open) => {
          if (open) {
            setError(null);
            setRequested(null);
          }
        }}
        onConfirm={async () => {
          const result = await stepUp.withStepUp(() => rotateServiceTokenAction({ tokenId }));
          if (!result.ok) {
            setError(result.error);
            return false;
          }
          setRequested(result.data);
          toast.success('Waiting for a second admin');
          return true;
        }}
      />
      <ConfirmDialog
        trigger={
          <Button variant="outline" size="sm" aria-label={`Revoke ${name}`}>
            <BanIcon aria-hidden />
            Revoke
          </Button>
        }
        title={`Revoke ${name}?`}
        description="Every call with this token is refused from now on and its webhook stops. Its requests still waiting for approval are cancelled; those already approved go on. This cannot be undone."
        confirmLabel={`Revoke ${name}`}
        destructive
        error={error}
        onOpenChange={(open) => open && setError(null)}
        onConfirm={async () => {
          const result = await stepUp.withStepUp(() => revokeServiceTokenAction({ tokenId }));
          if (!result.ok) {
            setError(result.error);
            return false;
          }
          toast.success(
            result.data.cancelled > 0
              ? `${name} revoked; ${result.data.cancelled} waiting request${result.data.cancelled === 1 ? '' : 's'} cancelled`
              : `${name} revoked`,
          );
          router.refresh();
          return true;
        }}
      />
      {requested ? (
        <div className="basis-full">
          <RequestedChangeNotice change={requested} />
        </div>
      ) : null}
      {stepUp.dialog}
    </div>
  );
}
