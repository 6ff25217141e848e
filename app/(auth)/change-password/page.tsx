import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { ChangePasswordForm } from '@/components/auth/change-password-form';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { currentActor } from '@/lib/server/guard';

export const metadata: Metadata = { title: 'Change password' };

export default async function ChangePasswordPage() {
  const actor = await currentActor();
  if (!actor) redirect('/sign-in');
  return (
    <Card className="w-full max-w-md">
      <CardHeader>
        <h1 className="text-2xl font-semibold tracking-tight">Choose a new password</h1>
        <CardDescription>
          Signed in as {actor.email}. A password given by an administrator works once: choose your own to
          continue.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ChangePasswordForm />
      </CardContent>
    </Card>
  );
}
