'use client';
// A new user's or a reset's request page: where the emailed link went and where it stands now. The link itself
// is in the person's mailbox only; nobody in the console, the requester included, ever sees it.
import { MailIcon } from 'lucide-react';
import { ResendInvitationButton } from '@/components/admin/users/resend-invitation-button';
import type { InvitationOutcome, InvitationStatus } from '@/lib/approvals/configuration';
import { formatDateTime } from '@/lib/format';

export interface InvitationOutcomeViewProps {
  userId: string;
  purpose: 'invitation' | 'reset';
  sent: InvitationOutcome;
  status: InvitationStatus | null;
  onResent: () => void;
}

export function InvitationOutcomeView({
  userId,
  purpose,
  sent,
  status,
  onResent,
}: InvitationOutcomeViewProps) {
  const what = purpose === 'reset' ? 'Reset link' : 'Invitation';
  const email = status?.email ?? sent.email;
  const error = status ? status.error : sent.delivered ? null : (sent.error ?? 'no reason given');
  if (status?.state === 'accepted')
    return (
      <p className="flex items-center gap-2">
        <MailIcon aria-hidden className="size-4" />
        {email} used the {purpose === 'reset' ? 'reset link' : 'invitation'} on{' '}
        {formatDateTime(status.usedAt)} and chose their own password.
      </p>
    );
  return (
    <div className="grid gap-2">
      <p className="flex items-center gap-2 font-medium">
        <MailIcon aria-hidden className="size-4" />
        {what} sent to {email}
      </p>
      {error ? <p role="alert">The email may not have left: {error}.</p> : null}
      <p>
        {status?.state === 'expired'
          ? `The link expired on ${formatDateTime(status.expiresAt)}.`
          : `The link works once, until ${formatDateTime(status?.expiresAt ?? sent.expiresAt)}.`}{' '}
        Only the person’s mailbox has it: they choose their own password there.
      </p>
      {status?.canResend ? (
        <div>
          <ResendInvitationButton
            userId={userId}
            label={purpose === 'reset' ? 'Send the reset link again' : 'Send the invitation again'}
            onSent={onResent}
          />
        </div>
      ) : null}
    </div>
  );
}
