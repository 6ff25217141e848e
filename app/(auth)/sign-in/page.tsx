import type { Metadata } from 'next';
import { SignInForm } from '@/components/auth/sign-in-form';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { getConfig } from '@/lib/config';
import { DEMO_PASSWORD, DEMO_USERS } from '@/lib/server/users';
import { safeCallbackPath } from '@/lib/validation/callback-url';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string }>;
}) {
  const { callbackUrl } = await searchParams;
  const config = getConfig();
  const sandbox = config.sandboxMode;
  // Sandbox mode without a mail server keeps the emails it sends on a page of its own.
  const mailbox = sandbox && !config.env.SMTP_URL;
  return (
    <div className="grid w-full max-w-md gap-6">
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-semibold tracking-tight">Custody Console</h1>
          <CardDescription>Sign in to manage wallets, approvals and webhooks.</CardDescription>
        </CardHeader>
        <CardContent>
          <SignInForm callbackUrl={safeCallbackPath(callbackUrl)} />
        </CardContent>
      </Card>
      {sandbox ? (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Demo users</CardTitle>
            <CardDescription>
              Password for each: <code className="font-mono text-foreground">{DEMO_PASSWORD}</code>
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-1 text-sm">
              {DEMO_USERS.map((u) => (
                <li key={u.email} className="flex justify-between gap-4">
                  <code className="font-mono">{u.email}</code>
                  <span className="text-muted-foreground">{u.role}</span>
                </li>
              ))}
            </ul>
            {mailbox ? (
              <p className="mt-3 text-sm text-muted-foreground">
                People invited in the demo find their invitation in the{' '}
                <a href="/mailbox" className="underline underline-offset-4">
                  sandbox mailbox
                </a>
                .
              </p>
            ) : null}
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
