import type { Metadata } from 'next';
import { PageHeader } from '@/components/shell/page-header';
import { Button } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { WalletCard } from '@/components/wallets/wallet-card';
import { requirePage } from '@/lib/server/page-guard';
import { can } from '@/lib/server/permissions';
import { loadWalletView } from '@/lib/server/wallet-views';
import { walletConnectionsOfRender } from '@/lib/server/wallets';

export const metadata: Metadata = { title: 'Wallets' };

export default async function WalletsPage() {
  const actor = await requirePage('read');
  const connections = await walletConnectionsOfRender();
  // Read every wallet at once; one failing read leaves the others standing.
  const views = await Promise.all(connections.map((c) => loadWalletView(c.id, actor.requestId)));
  return (
    <>
      <PageHeader
        title="Wallets"
        description="Master wallets connected to this console."
        actions={
          can(actor.role, 'wallets.manage') ? (
            <Button asChild variant="outline">
              <Link href="/admin/wallets">Manage connections</Link>
            </Button>
          ) : null
        }
      />
      {connections.length === 0 ? (
        <div className="rounded-md border p-10 text-center">
          <p className="font-medium">No wallets connected yet.</p>
          <p className="mt-1 text-sm text-muted-foreground">
            {can(actor.role, 'wallets.manage') ? (
              <>
                Connect one with its wallet id and API key in{' '}
                <Link href="/admin/wallets" className="underline">
                  wallet connections
                </Link>
                .
              </>
            ) : (
              'An admin connects wallets with their id and API key.'
            )}
          </p>
        </div>
      ) : (
        <section aria-label="Connected wallets" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {connections.map((c, i) => {
            const view = views[i];
            return (
              <WalletCard
                key={c.id}
                connection={{
                  id: c.id,
                  name: c.name,
                  blockchain: c.blockchain,
                  network: c.network,
                  address: c.address,
                }}
                initial={
                  view?.ok ? { ok: true, data: view.data } : { ok: false, error: view?.error ?? 'Not read.' }
                }
              />
            );
          })}
        </section>
      )}
    </>
  );
}
