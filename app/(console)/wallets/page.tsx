import type { Metadata } from 'next';
import { PageHeader } from '@/components/shell/page-header';
import { requirePage } from '@/lib/server/page-guard';

export const metadata: Metadata = { title: 'Wallets' };

export default async function WalletsPage() {
  await requirePage('read');
  return (
    <>
      <PageHeader title="Wallets" description="Master wallets connected to this console." />
      <p className="rounded-md border p-6 text-center text-muted-foreground">No wallets connected yet.</p>
    </>
  );
}
