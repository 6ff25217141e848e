import { ShieldAlertIcon } from 'lucide-react';
import Link from 'next/link';
import { Button } from '@/components/ui/button';

export default function Forbidden() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-6 text-center">
      <ShieldAlertIcon className="size-10 text-destructive" aria-hidden />
      <h1 className="text-2xl font-semibold">Forbidden</h1>
      <p className="max-w-md text-muted-foreground">Your role does not give access to this page.</p>
      <Button asChild variant="outline">
        <Link href="/">Back to the console</Link>
      </Button>
    </main>
  );
}
