import 'server-only';
// The command palette's search: one query against every connected wallet (transactions by id, hash or
// reference; addresses by id, address or name), a few wallets at a time so a long list of connections does
// not fire dozens of upstream calls at once. A service without the wallet-wide transaction list is searched
// by id or hash on each known child address (#3); without the address list, addresses only by id (#5).
import type { CustodyClient } from '@/lib/custody';
import { isMissingEndpoint } from '@/lib/custody';
import { CustodyError } from '@/lib/custody/errors';
import type { Address, Transaction } from '@/lib/custody/schemas';
import { formatAmount } from '@/lib/format';
import type { SearchHit, SearchResult } from '@/lib/search-result';
import { serializeTransactionSearch } from '@/lib/validation/transactions';
import type { Capabilities } from './capabilities';
import { describeFailure } from './errors';
import { findOnAddresses } from './transactions';
import { runPool } from './webhooks';

const SEARCH_CONCURRENCY = 4;
const PER_WALLET = 5;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TX_HASH = /^(0x)?[0-9a-fA-F]{64}$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export interface SearchableWallet {
  id: string;
  name: string;
  client: CustodyClient;
  /** The service's extensions; every one is assumed present when left out. */
  capabilities?: Pick<Capabilities, 'walletTransactions' | 'walletAddresses'>;
  /** The child addresses searched one by one when the wallet-wide list is missing (read only then). */
  addressIds?: () => Promise<readonly string[]>;
}

export type SearchPlan = {
  transactions: 'id' | 'hash' | 'reference' | null;
  addresses: 'id' | 'search' | null;
};

/** Which lookups a query deserves: a UUID is a transaction or an address id, a 64-hex string a hash, ... */
export function planSearch(query: string): SearchPlan {
  if (UUID.test(query)) return { transactions: 'id', addresses: 'id' };
  if (TX_HASH.test(query)) return { transactions: 'hash', addresses: null };
  if (EVM_ADDRESS.test(query)) return { transactions: null, addresses: 'search' };
  return { transactions: 'reference', addresses: 'search' };
}

function transactionHit(wallet: SearchableWallet, tx: Transaction): SearchHit {
  const symbol = tx.asset?.symbol ?? tx.currency ?? '';
  const amount =
    tx.amount !== null ? `${formatAmount(tx.amount, tx.asset?.decimals ?? 18)} ${symbol}`.trim() : '';
  const qs = serializeTransactionSearch({ id: tx.id, open: tx.id });
  return {
    kind: 'transaction',
    walletId: wallet.id,
    walletName: wallet.name,
    id: tx.id,
    title: [tx.type, amount, tx.status].filter(Boolean).join(' · '),
    subtitle: `${wallet.name} · ref ${tx.reference}${tx.hash ? ` · ${tx.hash}` : ''}`,
    href: `/wallets/${encodeURIComponent(wallet.id)}/transactions?${qs}`,
  };
}

function addressHit(wallet: SearchableWallet, address: Address): SearchHit {
  return {
    kind: 'address',
    walletId: wallet.id,
    walletName: wallet.name,
    id: address.id,
    title: address.name ?? address.address,
    subtitle: `${wallet.name} · ${address.address}`,
    href: `/wallets/${encodeURIComponent(wallet.id)}/addresses/${encodeURIComponent(address.id)}`,
  };
}

// "Not found" on a by-id read is an answer (no such object in this wallet), not a failure.
function absentOn404<T>(promise: Promise<T>, fallback: T): Promise<T> {
  return promise.catch((error: unknown) => {
    if (error instanceof CustodyError && (error.status === 404 || error.status === 400)) return fallback;
    throw error;
  });
}

/** Without the wallet-wide list: an id or hash on each known child address; #3 has no reference filter. */
async function searchAddressesFor(
  wallet: SearchableWallet,
  query: string,
  by: 'id' | 'hash' | 'reference',
): Promise<SearchHit[]> {
  if (by === 'reference' || !wallet.addressIds) return [];
  const filter = by === 'id' ? { id: query } : { hash: query };
  const tx = await findOnAddresses(wallet.client, wallet.id, await wallet.addressIds(), filter);
  return tx ? [transactionHit(wallet, tx)] : [];
}

// An extension that answers "no such endpoint" is treated as absent rather than as a failed wallet.
function orWhenMissing<T>(promise: Promise<T>, fallback: () => Promise<T>): Promise<T> {
  return promise.catch((error: unknown) => {
    if (isMissingEndpoint(error)) return fallback();
    throw error;
  });
}

async function searchWallet(wallet: SearchableWallet, query: string, plan: SearchPlan): Promise<SearchHit[]> {
  const { client, id: walletId } = wallet;
  const lookups: Promise<SearchHit[]>[] = [];
  const by = plan.transactions;
  if (by) {
    lookups.push(
      wallet.capabilities?.walletTransactions === false
        ? searchAddressesFor(wallet, query, by)
        : orWhenMissing(
            client.wallets
              .listTransactions({ walletId, [by]: query, limit: PER_WALLET })
              .then((page) => page.data.map((tx) => transactionHit(wallet, tx))),
            () => searchAddressesFor(wallet, query, by),
          ),
    );
  }
  if (plan.addresses === 'id') {
    lookups.push(
      absentOn404(
        client.addresses.get({ walletId, addressId: query }).then((r) => [addressHit(wallet, r.data)]),
        [],
      ),
    );
  } else if (plan.addresses === 'search' && wallet.capabilities?.walletAddresses !== false) {
    // Searching by name or address needs the address list; without it only an id finds an address.
    lookups.push(
      orWhenMissing(
        client.wallets
          .listAddresses({ walletId, search: query, limit: PER_WALLET })
          .then((page) => page.data.map((a) => addressHit(wallet, a))),
        async () => [],
      ),
    );
  }
  return (await Promise.all(lookups)).flat();
}

export async function searchConsole(
  wallets: readonly SearchableWallet[],
  rawQuery: string,
  requestId: string | null,
): Promise<SearchResult> {
  const query = rawQuery.trim();
  const plan = planSearch(query);
  const results = await runPool(wallets, SEARCH_CONCURRENCY, (wallet) => searchWallet(wallet, query, plan));
  const hits: SearchHit[] = [];
  const failures: SearchResult['failures'] = [];
  results.forEach((result, index) => {
    const wallet = wallets[index];
    if (!wallet) return;
    if (result.ok) hits.push(...result.value);
    else {
      failures.push({
        walletId: wallet.id,
        walletName: wallet.name,
        message: describeFailure(result.error, requestId, `search in ${wallet.id}`).message,
      });
    }
  });
  return { query, hits, failures };
}
