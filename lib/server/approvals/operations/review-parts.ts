import 'server-only';
// The parts every kind's review names the same way: the wallet, a child address, where money leaves from.
import type { ReviewAddress, ReviewSource, ReviewWallet } from '@/lib/approvals/types';
import type { Address, Wallet } from '@/lib/custody/schemas';

export function reviewWallet(wallet: Wallet): ReviewWallet {
  return {
    id: wallet.id,
    name: wallet.name,
    address: wallet.address,
    blockchain: wallet.blockchain.name,
    slug: wallet.blockchain.slug,
    network: wallet.network,
  };
}

export function reviewAddress(child: Address): ReviewAddress {
  return { addressId: child.id, address: child.address, name: child.name ?? null };
}

/** The master wallet, or the child address the money leaves from. */
export function reviewSource(wallet: Wallet, child: Address | null | undefined): ReviewSource {
  return child
    ? { kind: 'address', address: child.address, name: child.name ?? null, addressId: child.id }
    : { kind: 'master', address: wallet.address, name: wallet.name, addressId: null };
}
