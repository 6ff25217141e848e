'use client';
// "Send the invitation again": a new link goes to the person's own address and the one they have not used stops
// working. The admin sees where it went, never the link.
import { MailIcon } from 'lucide-react';
import { useTransition } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { resendInvitationAction } from '@/lib/actions/users';

export interface ResendInvitationButtonProps {
  userId: string;
  /** The person, for the button's accessible name in a table ("… to Nia New"). */
  name?: string;
  label: string;
  onSent?: () => void;
}

export function ResendInvitationButton({ userId, name, label, onSent }: ResendInvitationButtonProps) {
  const [pending, startTransition] = useTransition();
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      disabled={pending}
      onClick={() =>
        startTransition(async () => {
          const result = await resendInvitationAction({ userId }).catch(() => ({
            ok: false as const,
            error: 'The console could not be reached. Try again.',
          }));
          if (!result.ok) toast.error(result.error);
          else if (result.data.delivered)
            toast.success(`A new link was sent to ${result.data.email}; the earlier one no longer works`);
          else toast.error(`The email to ${result.data.email} could not be sent: ${result.data.error ?? ''}`);
          onSent?.();
        })
      }
    >
      <MailIcon aria-hidden />
      {label}
      {name ? <span className="sr-only"> to {name}</span> : null}
    </Button>
  );
}
