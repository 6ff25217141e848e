import { ShieldAlertIcon } from 'lucide-react';
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { Button } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { currentActor } from '@/lib/server/guard';
import { neededRoleSentence, pageRuleOf } from '@/lib/server/page-rules';

export const metadata: Metadata = { title: 'Forbidden' };

export default async function Forbidden() {
  const [actor, requestHeaders] = await Promise.all([currentActor(), headers()]);
  const rule = pageRuleOf(requestHeaders.get('x-pathname') ?? '')?.rule;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-6 text-center">
      <ShieldAlertIcon className="size-10 text-destructive" aria-hidden />
      <h1 className="text-2xl font-semibold">Forbidden</h1>
      <p className="max-w-md text-muted-foreground">
        {rule
          ? `${neededRoleSentence(rule.action, actor?.role)} An admin can change your role.`
          : 'Your role does not give access to this page.'}
      </p>
      <Button asChild variant="outline">
        <Link href="/">Back to the console</Link>
      </Button>
    </main>
  );
}
