import type { Metadata } from 'next';
import { Button } from '@/components/ui/button';
import { Link } from '@/components/ui/link';

export const metadata: Metadata = { title: 'Page not found' };

export default function NotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-muted-foreground">There is nothing at this address.</p>
      <Button asChild variant="outline">
        <Link href="/">Back to the console</Link>
      </Button>
    </main>
  );
}
