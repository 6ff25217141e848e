import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { formatDateTime } from '@/lib/format';
import { readSandboxMailbox } from '@/lib/server/invitations/sandbox-mailbox';
import { getRuntime } from '@/lib/server/runtime';

export const metadata: Metadata = { title: 'Sandbox mailbox', referrer: 'no-referrer' };

/**
 * Sandbox mode without SMTP_URL: the emails the console would have sent (invitations, reset links), readable by
 * anyone who reaches this demo server. Absent against a real service.
 */
export default async function SandboxMailboxPage() {
  // Read at each request, never prerendered: the build does not open (or seed) a database to find that out.
  await connection();
  const runtime = await getRuntime();
  if (!runtime.config.sandboxMode) notFound();
  const smtp = Boolean(runtime.config.env.SMTP_URL);
  const messages = smtp ? [] : await readSandboxMailbox(runtime.config.dataDir);
  return (
    <Card className="w-full max-w-2xl">
      <CardHeader>
        <h1 className="text-2xl font-semibold tracking-tight">Sandbox mailbox</h1>
        <CardDescription>
          Demo only. With no mail server set (SMTP_URL), the sandbox keeps here the emails the console sends
          to people (invitations and reset links), so new demo users can be invited. Anyone who can reach this
          server can read them; a console pointed at a real custody service has no mailbox and sends email
          only.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {smtp ? (
          <p>This console sends email through its mail server (SMTP_URL): nothing is kept here.</p>
        ) : messages.length === 0 ? (
          <p>No emails yet.</p>
        ) : (
          messages.map((m) => (
            <Alert key={m.id}>
              <AlertTitle>{m.subject}</AlertTitle>
              <AlertDescription className="grid gap-1">
                <p className="text-xs text-muted-foreground">
                  To {m.to} · {formatDateTime(m.at)}
                </p>
                <pre className="whitespace-pre-wrap break-all font-sans text-sm">
                  {m.text.split(/(https?:\/\/[^\s()<>]*[^\s()<>.,;:!?])/).map((part, i) =>
                    /^https?:\/\//.test(part) ? (
                      <a key={i} href={part} className="underline underline-offset-4">
                        {part}
                      </a>
                    ) : (
                      part
                    ),
                  )}
                </pre>
              </AlertDescription>
            </Alert>
          ))
        )}
      </CardContent>
    </Card>
  );
}
