import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ContractBuilder } from '@/components/contracts/contract-builder';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { describeFailure } from '@/lib/server/errors';
import { requirePage } from '@/lib/server/page-guard';
import { can } from '@/lib/server/permissions';
import { addressOption, childAddressesFor } from '@/lib/server/wallet-addresses';
import { custodyFor } from '@/lib/server/wallets';

export const metadata: Metadata = { title: 'Contracts' };

export default async function ContractsPage({ params }: { params: Promise<{ walletId: string }> }) {
  const actor = await requirePage('contract.read');
  const { walletId } = await params;
  const client = await custodyFor(walletId);
  if (!client) notFound();
  const canWrite = can(actor.role, 'contractWrite.request');
  const canSign = can(actor.role, 'contractSign.request');
  let tokens: Array<{ symbol: string; address: string; decimals: number }>;
  let sources: Array<{ id: string; label: string; address: string }> = [];
  let addressSource: 'service' | 'known' = 'service';
  try {
    // The address list is an extension; without it the builder offers the addresses the console has seen.
    const [wallet, children] = await Promise.all([
      client.wallets.get({ walletId }).then((r) => r.data),
      canWrite || canSign
        ? childAddressesFor(client, walletId)
        : Promise.resolve({ source: 'service' as const, addresses: [] }),
    ]);
    tokens = (wallet.assets ?? [])
      .filter((a) => !/^0x0{40}$/i.test(a.asset.address))
      .map((a) => ({ symbol: a.asset.symbol, address: a.asset.address, decimals: a.asset.decimals }));
    sources = children.addresses.map(addressOption);
    addressSource = children.source;
  } catch (error) {
    return (
      <Alert variant="destructive">
        <AlertTitle>Could not load the wallet</AlertTitle>
        <AlertDescription>
          {describeFailure(error, actor.requestId, 'contracts page').message}
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <div className="grid gap-4">
      <div>
        <h2 className="text-xl font-semibold">Contract calls</h2>
        <p className="text-sm text-muted-foreground">
          Reads run at once. Writes and sign-only calls become approval requests; the approver who submits
          types the two-factor code.
        </p>
      </div>
      <ContractBuilder
        walletId={walletId}
        tokens={tokens}
        sources={sources}
        canWrite={canWrite}
        canSign={canSign}
        addressSource={addressSource}
      />
    </div>
  );
}
