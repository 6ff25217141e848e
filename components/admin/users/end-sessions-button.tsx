'use client';
// An admin ends every session of one user: each browser signed in as them is signed out at once.
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { endUserSessionsAction } from '@/lib/actions/sessions';

export interface EndSessionsButtonProps {
  userId: string;
  name: string;
  email: string;
}

export function EndSessionsButton({ userId, name, email }: EndSessionsButtonProps) {
  const [error, setError] = useState<string | null>(null);
  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm">
          End sessions<span className="sr-only"> of {name}</span>
        </Button>
      }
      title={`End every session of ${name}`}
      description={`Every browser signed in as ${email} is signed out at once. They can sign in again.`}
      confirmLabel="End sessions"
      destructive
      error={error}
      onOpenChange={() => setError(null)}
      onConfirm={async () => {
        const result = await endUserSessionsAction({ userId }).catch(() => ({
          ok: false as const,
          error: 'The console could not be reached. Try again.',
        }));
        if (!result.ok) {
          setError(result.error);
          return false;
        }
        toast.success(
          result.data.ended === 1
            ? `1 session of ${email} ended`
            : `${result.data.ended} sessions of ${email} ended`,
        );
        return true;
      }}
    />
  );
}
