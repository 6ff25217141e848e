import type { Metadata } from 'next';
import { InvitationForm } from '@/components/auth/invitation-form';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { checkInvitation, invitationRefusalSentence } from '@/lib/server/invitations';
import { getDb } from '@/lib/server/runtime';

// The link carries its token in the path: never sent on as a referrer.
export const metadata: Metadata = { title: 'Set up your account', referrer: 'no-referrer' };

/** An invitation or reset link, opened without a session: the token itself is checked here and by every action. */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const check = await checkInvitation(await getDb(), token);
  if (!check.ok)
    return (
      <Card className="w-full max-w-md">
        <CardHeader>
          <h1 className="text-2xl font-semibold tracking-tight">This link cannot be used</h1>
        </CardHeader>
        <CardContent className="grid gap-4">
          <Alert variant="destructive" role="alert">
            <AlertDescription>{invitationRefusalSentence(check)}</AlertDescription>
          </Alert>
          <Link href="/sign-in" className="text-sm underline underline-offset-4">
            Go to sign-in
          </Link>
        </CardContent>
      </Card>
    );
  const { user, invitation, needsFactor } = check;
  const reset = invitation.purpose === 'reset';
  return (
    <Card className="w-full max-w-md">
      <CardHeader>
        <h1 className="text-2xl font-semibold tracking-tight">
          {reset ? 'Choose a new password' : 'Set up your account'}
        </h1>
        <CardDescription>
          {reset
            ? `A new sign-in for ${user.name} (${user.role}). Your old password no longer works.`
            : `Welcome, ${user.name}: your account on the Custody Console has the role ${user.role}.`}{' '}
          This link works once.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <InvitationForm token={token} email={user.email} needsFactor={needsFactor} />
      </CardContent>
    </Card>
  );
}
