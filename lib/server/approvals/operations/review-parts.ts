import 'server-only';
// The parts every kind's review names the same way: the wallet, a child address, where money leaves from.
import { getAddress, isAddress } from 'viem';
import type { AddressBookSource } from '@/lib/approvals/address-book';
import type { NamedAddress } from '@/lib/approvals/custody-settings';
import type { ReviewAddress, ReviewSource, ReviewWallet } from '@/lib/approvals/types';
import type { Address, Wallet } from '@/lib/custody/schemas';
import { addressKey } from '@/lib/validation/addresses';
import { consoleEntriesByAddress } from '../../address-book';
import type { ReviewContext } from '../types';

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

/** An address checksummed where it is an EVM address, as it is otherwise. */
export function checksummed(address: string): string {
  return isAddress(address, { strict: false }) ? getAddress(address) : address;
}

/**
 * The address book's name of each address, by address key: the console's own book first, then the service's
 * whitelisted addresses and beneficiaries. A list the service does not offer names nothing.
 */
export async function bookNamesOf(
  ctx: Pick<ReviewContext, 'db' | 'client' | 'walletId'>,
  addresses: readonly string[],
): Promise<Map<string, { name: string; source: AddressBookSource }>> {
  const { db, client, walletId } = ctx;
  const names = new Map<string, { name: string; source: AddressBookSource }>();
  const wanted = new Set(addresses.map(addressKey));
  if (wanted.size === 0) return names;
  const [book, externals, beneficiaries] = await Promise.all([
    consoleEntriesByAddress(db, walletId, addresses),
    client.wallets
      .listAddresses({ walletId, type: 'EXTERNAL', limit: 100 })
      .then((r) => r.data.filter((a) => a.type === 'EXTERNAL' && a.isActive !== false))
      .catch(() => []),
    client.beneficiaries
      .list({ walletId, limit: 100 })
      .then((r) => r.data.filter((b) => !b.deletedAt))
      .catch(() => []),
  ]);
  const add = (address: string, name: string, source: AddressBookSource) => {
    const key = addressKey(address);
    if (wanted.has(key) && !names.has(key)) names.set(key, { name, source });
  };
  for (const entry of book.values()) add(entry.address, entry.name, 'console');
  for (const a of externals) add(a.address, a.name ?? 'Whitelisted address', 'whitelisted');
  for (const b of beneficiaries) add(b.address, b.name, 'beneficiary');
  return names;
}

/** An address as reviews name it: checksummed, with its address book name when it has one. */
export function namedAddress(
  address: string,
  names: Map<string, { name: string; source: AddressBookSource }>,
): NamedAddress {
  const found = names.get(addressKey(address));
  return { address: checksummed(address), bookName: found?.name ?? null, bookSource: found?.source ?? null };
}

/** A change on a mainnet wallet says so first. */
export function mainnetWarnings(network: string): string[] {
  return network === 'mainnet' ? ['Mainnet: this wallet holds real funds.'] : [];
}
