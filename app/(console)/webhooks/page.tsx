import type { Metadata } from 'next';
import { PageHeader } from '@/components/shell/page-header';
import { requirePage } from '@/lib/server/page-guard';

export const metadata: Metadata = { title: 'Webhooks' };

export default async function WebhooksPage() {
  await requirePage('webhook.resend');
  return (
    <>
      <PageHeader title="Webhooks" description="Delivery logs of the custody service's webhooks." />
      <p className="rounded-md border p-6 text-center text-muted-foreground">No wallets connected yet.</p>
    </>
  );
}
