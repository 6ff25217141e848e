import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { ChangePasswordForm } from '@/components/auth/change-password-form';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { currentActor, mustChangePassword } from '@/lib/server/guard';

export const metadata: Metadata = { title: 'Change password' };

export default async function ChangePasswordPage() {
  const actor = await currentActor();
  if (!actor) redirect('/sign-in');
  // A one-time password must be replaced before anything else; anyone else comes here by choice.
  const required = await mustChangePassword();
  return (
    <Card className="w-full max-w-md">
      <CardHeader>
        <h1 className="text-2xl font-semibold tracking-tight">
          {required ? 'Choose a new password' : 'Change your password'}
        </h1>
        <CardDescription>
          Signed in as {actor.email}.{' '}
          {required
            ? 'A password given by an administrator works once: choose your own to continue.'
            : 'Your current password confirms it is you.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ChangePasswordForm />
        {required ? null : (
          <Link href="/account/security" className="text-sm underline underline-offset-4">
            Back to the console
          </Link>
        )}
      </CardContent>
    </Card>
  );
}
