import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { TypedDataForm } from '@/components/signing/typed-data-form';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { describeFailure } from '@/lib/server/errors';
import { requirePage } from '@/lib/server/page-guard';
import { addressOption, childAddressesFor } from '@/lib/server/wallet-addresses';
import { custodyFor } from '@/lib/server/wallets';
import { CHAIN_IDS } from '@/lib/validation/typed-data';

export const metadata: Metadata = { title: 'Signing' };

const ZERO = '0x0000000000000000000000000000000000000000';

export default async function SigningPage({ params }: { params: Promise<{ walletId: string }> }) {
  const actor = await requirePage('typedDataSign.request');
  const { walletId } = await params;
  const client = await custodyFor(walletId);
  if (!client) notFound();
  let loaded: {
    chainId: number | null;
    tokens: Array<{ address: string; symbol: string; name: string; decimals: number }>;
    addresses: Array<{ id: string; label: string; address: string }>;
    addressSource: 'service' | 'known';
  };
  try {
    // The address list is an extension; without it the form offers the addresses the console has seen.
    const [wallet, children] = await Promise.all([
      client.wallets.get({ walletId }).then((r) => r.data),
      childAddressesFor(client, walletId),
    ]);
    loaded = {
      chainId: CHAIN_IDS[`${wallet.blockchain.slug}:${wallet.network}`] ?? null,
      tokens: (wallet.assets ?? [])
        .filter((a) => a.isActive && a.asset.address && a.asset.address.toLowerCase() !== ZERO)
        .map((a) => ({
          address: a.asset.address,
          symbol: a.asset.symbol,
          name: a.asset.name,
          decimals: a.asset.decimals,
        })),
      addresses: children.addresses.map(addressOption),
      addressSource: children.source,
    };
  } catch (error) {
    return (
      <Alert variant="destructive">
        <AlertTitle>Could not load the wallet</AlertTitle>
        <AlertDescription>{describeFailure(error, actor.requestId, 'signing page').message}</AlertDescription>
      </Alert>
    );
  }
  return (
    <div className="grid gap-4">
      <div>
        <h2 className="text-xl font-semibold">Sign typed data</h2>
        <p className="text-sm text-muted-foreground">
          EIP-712 signatures (permits, transfer authorizations) from a child address. A signature can move
          funds later: the request waits for another person&apos;s approval.
        </p>
      </div>
      {loaded.addresses.length === 0 && loaded.addressSource === 'service' ? (
        <p className="text-sm text-muted-foreground">This wallet has no child addresses to sign with.</p>
      ) : (
        <TypedDataForm
          walletId={walletId}
          addresses={loaded.addresses}
          tokens={loaded.tokens}
          chainId={loaded.chainId}
          addressSource={loaded.addressSource}
        />
      )}
    </div>
  );
}
