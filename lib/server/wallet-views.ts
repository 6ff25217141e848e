import 'server-only';
// What the wallet pages and their route handlers show, read through the connected wallet's key and
// redacted before it is returned. Failures are values: the pages render the upstream's message.
import { type CustodyClient, CustodyError, isMissingEndpoint } from '@/lib/custody';
import type { Address, AutoSettlementRule, Beneficiary, WalletAutoSettlement } from '@/lib/custody/schemas';
import type { AddressFilters } from '@/lib/validation/address-search';
import type {
  AddressBalances,
  AddressPage,
  AddressTransactionPage,
  AssetBalance,
  WalletView,
} from '@/lib/wallet-view';
import {
  CAPABILITY_NAMES,
  type Capabilities,
  probeCapabilities,
  toCapabilities,
  viaExtension,
} from './capabilities';
import { describeFailure, WALLET_NOT_CONNECTED } from './errors';
import { redactAddress, redactTransaction, redactWallet } from './redaction';
import { childAddressesFor, knownAddressIds, lookUpAddresses } from './wallet-addresses';
import { custodyFor, findWalletConnection } from './wallets';

export type Loaded<T> = { ok: true; data: T } | { ok: false; status: number; error: string };

const ADDRESSES_NOT_OFFERED =
  "This custody service does not list a wallet's addresses; open an address from its transactions or webhooks.";

/** The wallet's balances extension; null where the service lacks it (the page falls back to #4's totals). */
async function readBalances(client: CustodyClient, walletId: string) {
  try {
    return (await client.wallets.balances({ walletId })).data;
  } catch (error) {
    if (error instanceof CustodyError && [400, 404, 405, 501].includes(error.status)) return null;
    throw error;
  }
}

function toNumber(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** #4 (plus per-asset balances where the service has them) for one connected wallet, redacted. */
export async function loadWalletView(
  walletId: string,
  requestId: string | null = null,
): Promise<Loaded<WalletView>> {
  const client = await custodyFor(walletId);
  if (!client) return { ok: false, status: 404, error: WALLET_NOT_CONNECTED };
  try {
    const [walletResult, balanceRows] = await Promise.all([
      client.wallets.get({ walletId }),
      readBalances(client, walletId).catch(() => null),
    ]);
    const wallet = redactWallet(walletResult.data);
    const balances: AssetBalance[] = wallet.assets.map((entry) => {
      const found = balanceRows?.find((b) => b.asset.id === entry.id || b.asset.asset.id === entry.asset.id);
      return {
        walletAssetId: entry.id,
        assetId: entry.asset.id,
        symbol: entry.asset.symbol,
        name: entry.asset.name,
        decimals: entry.asset.decimals,
        isActive: entry.isActive && entry.asset.isActive,
        contractAddress: entry.asset.address,
        balance: found ? found.balance : null,
        usd: found ? toNumber(found.convertedBalance) : null,
      };
    });
    return { ok: true, data: { wallet, balances, balancesSource: balanceRows ? 'balances' : 'analytics' } };
  } catch (error) {
    const { message, status } = describeFailure(error, requestId, `wallet ${walletId}`);
    return { ok: false, status, error: message };
  }
}

/** The wallet's addresses (extension list), filtered and paged upstream, each redacted. */
export async function loadAddresses(
  walletId: string,
  filters: AddressFilters,
  requestId: string | null = null,
): Promise<Loaded<AddressPage>> {
  const client = await custodyFor(walletId);
  if (!client) return { ok: false, status: 404, error: WALLET_NOT_CONNECTED };
  try {
    const page = await client.wallets.listAddresses({
      walletId,
      page: filters.page,
      limit: filters.limit,
      search: filters.search,
      type: filters.type,
    });
    return { ok: true, data: { data: page.data.map((a) => redactAddress(a)), meta: page.meta } };
  } catch (error) {
    if (isMissingEndpoint(error)) return knownAddressesPage(client, walletId, filters, requestId);
    const { message, status } = describeFailure(error, requestId, `addresses of ${walletId}`);
    return { ok: false, status, error: message };
  }
}

/**
 * Without the address list: the child addresses the console has seen, each read with #5, filtered and
 * paged here (at most MAX_KNOWN_ADDRESSES of them).
 */
async function knownAddressesPage(
  client: CustodyClient,
  walletId: string,
  filters: AddressFilters,
  requestId: string | null,
): Promise<Loaded<AddressPage>> {
  try {
    const known = await lookUpAddresses(client, walletId, await knownAddressIds(walletId));
    const search = filters.search?.toLowerCase();
    const matching = known.filter(
      (a) =>
        (!filters.type || (a.type ?? 'INTERNAL') === filters.type) &&
        (!search ||
          a.address.toLowerCase().includes(search) ||
          (a.name ?? '').toLowerCase().includes(search)),
    );
    const totalPages = Math.max(1, Math.ceil(matching.length / filters.limit));
    const currentPage = Math.min(filters.page, totalPages);
    const data = matching.slice((currentPage - 1) * filters.limit, currentPage * filters.limit);
    return {
      ok: true,
      data: {
        data: data.map((a) => redactAddress(a)),
        meta: {
          currentPage,
          itemCount: data.length,
          itemsPerPage: filters.limit,
          totalItems: matching.length,
          totalPages,
        },
        source: 'known',
      },
    };
  } catch (error) {
    const { message, status } = describeFailure(error, requestId, `known addresses of ${walletId}`);
    return { ok: false, status, error: `${ADDRESSES_NOT_OFFERED} ${message}` };
  }
}

/** #5, redacted (never read with showPrivateKey here: revealing is its own audited action). */
export async function loadAddress(
  walletId: string,
  addressId: string,
  requestId: string | null = null,
): Promise<Loaded<Address>> {
  const client = await custodyFor(walletId);
  if (!client) return { ok: false, status: 404, error: WALLET_NOT_CONNECTED };
  try {
    const { data } = await client.addresses.get({ walletId, addressId });
    return { ok: true, data: redactAddress(data) };
  } catch (error) {
    const { message, status } = describeFailure(error, requestId, `address ${addressId}`);
    return { ok: false, status, error: message };
  }
}

/**
 * A child address's balances through the balances extension; a service without it is an answer
 * (`available: false`: the balances are unknown, not zero), not a failure.
 */
export async function loadAddressBalances(
  walletId: string,
  addressId: string,
  requestId: string | null = null,
): Promise<Loaded<AddressBalances>> {
  const client = await custodyFor(walletId);
  if (!client) return { ok: false, status: 404, error: WALLET_NOT_CONNECTED };
  try {
    const rows = await viaExtension(
      walletId,
      'balances',
      async () => (await client.addresses.balances({ walletId, addressId })).data,
      async () => null,
    );
    if (!rows) return { ok: true, data: { available: false } };
    return {
      ok: true,
      data: {
        available: true,
        balances: rows
          .filter((r) => r.asset.isActive !== false)
          .map((r) => ({
            walletAssetId: r.asset.id,
            symbol: r.asset.asset.symbol,
            name: r.asset.asset.name ?? null,
            decimals: r.asset.asset.decimals,
            balance: r.balance,
            usd: toNumber(r.convertedBalance),
          })),
      },
    };
  } catch (error) {
    const { message, status } = describeFailure(error, requestId, `balances of address ${addressId}`);
    return { ok: false, status, error: message };
  }
}

export interface AddressTransactionQuery {
  page: number;
  limit: number;
  order: 'ASC' | 'DESC';
  /** One transaction of the address (#3's `id` filter), e.g. a deposit being followed. */
  id?: string;
}

/** #3: one page of a child address's transactions, newest first by default, each redacted. */
export async function loadAddressTransactions(
  walletId: string,
  addressId: string,
  query: AddressTransactionQuery,
  requestId: string | null = null,
): Promise<Loaded<AddressTransactionPage>> {
  const client = await custodyFor(walletId);
  if (!client) return { ok: false, status: 404, error: WALLET_NOT_CONNECTED };
  try {
    const page = await client.addresses.listTransactions({
      walletId,
      addressId,
      page: query.page,
      limit: query.limit,
      order: query.order,
      id: query.id,
    });
    return { ok: true, data: { data: page.data.map((tx) => redactTransaction(tx)), meta: page.meta } };
  } catch (error) {
    const { message, status } = describeFailure(error, requestId, `transactions of address ${addressId}`);
    return { ok: false, status, error: message };
  }
}

/**
 * What a page may assume of the wallet's extensions without waiting: what a probe stored, else (never
 * probed) that each is there, while a probe runs in the background. An extension that turns out missing
 * falls back in place (viaExtension), so the page renders now instead of after the probe.
 */
async function capabilitiesWithoutWaiting(walletId: string): Promise<Capabilities> {
  const row = await findWalletConnection(walletId);
  if (row?.capabilities) return toCapabilities(row.capabilities);
  void probeCapabilities(walletId);
  return Object.fromEntries(CAPABILITY_NAMES.map((name) => [name, true])) as Capabilities;
}

/** A list read from an extension endpoint: `listed: false` when the service does not offer it at all. */
export type ExtensionList<T> = { listed: true; items: T[] } | { listed: false };

/** The wallet's beneficiaries (extension list); a service without the list is an answer, not a failure. */
export async function loadBeneficiaries(
  walletId: string,
  requestId: string | null = null,
): Promise<Loaded<ExtensionList<Beneficiary>>> {
  const client = await custodyFor(walletId);
  if (!client) return { ok: false, status: 404, error: WALLET_NOT_CONNECTED };
  try {
    const page = await client.beneficiaries.list({ walletId, limit: 100 });
    return { ok: true, data: { listed: true, items: page.data } };
  } catch (error) {
    if (isMissingEndpoint(error)) return { ok: true, data: { listed: false } };
    const { message, status } = describeFailure(error, requestId, `beneficiaries of ${walletId}`);
    return { ok: false, status, error: message };
  }
}

export interface SettlementView {
  walletName: string;
  chainSlug: string;
  /** Symbols of the wallet's active assets, for the rule editor. */
  symbols: string[];
  settlement: WalletAutoSettlement;
  addresses: { options: Array<{ id: string; label: string }>; source: 'service' | 'known' };
  /** The child address picked in the URL, when it is one of the wallet's. */
  selectedId: string | null;
  /** Rules of the picked address: absent without a pick; an error or "not offered" stays in its card. */
  rules:
    | { state: 'none' }
    | { state: 'listed'; items: AutoSettlementRule[] }
    | { state: 'not-offered' }
    | { state: 'failed'; error: string };
}

/**
 * What the auto-settlement page shows: #4 and #8 are needed (a failure is the page's message); the address
 * list and an address's rules come from extensions and degrade in place.
 */
export async function loadSettlement(
  walletId: string,
  addressId: string | undefined,
  requestId: string | null = null,
): Promise<Loaded<SettlementView>> {
  const client = await custodyFor(walletId);
  if (!client) return { ok: false, status: 404, error: WALLET_NOT_CONNECTED };
  try {
    const [wallet, settlement, children] = await Promise.all([
      client.wallets.get({ walletId }),
      client.autoSettlement.get({ walletId }),
      capabilitiesWithoutWaiting(walletId).then((known) => childAddressesFor(client, walletId, known)),
    ]);
    const selected = addressId ? children.addresses.find((a) => a.id === addressId) : undefined;
    let rules: SettlementView['rules'] = { state: 'none' };
    if (selected) {
      try {
        rules = {
          state: 'listed',
          items: (await client.addressRules.list({ walletId, addressId: selected.id })).data,
        };
      } catch (error) {
        rules = isMissingEndpoint(error)
          ? { state: 'not-offered' }
          : { state: 'failed', error: describeFailure(error, requestId, 'list address rules').message };
      }
    }
    return {
      ok: true,
      data: {
        walletName: wallet.data.name,
        chainSlug: wallet.data.blockchain.slug,
        symbols: [...new Set(wallet.data.assets.filter((a) => a.isActive).map((a) => a.asset.symbol))],
        settlement: settlement.data,
        addresses: {
          source: children.source,
          options: children.addresses.map((a) => ({
            id: a.id,
            label: `${a.name ?? 'Unnamed'} · ${a.address}`,
          })),
        },
        selectedId: selected?.id ?? null,
        rules,
      },
    };
  } catch (error) {
    const { message, status } = describeFailure(error, requestId, `auto-settlement of ${walletId}`);
    return { ok: false, status, error: message };
  }
}
