import 'server-only';
// What the wallet pages and their route handlers show, read through the connected wallet's key and
// redacted before it is returned. Failures are values: the pages render the upstream's message.
import { z } from 'zod';
import { CustodyError, createTransport, path } from '@/lib/custody';
import type { Address } from '@/lib/custody/schemas';
import type { ConsoleDb } from '@/lib/db/schema';
import type { AddressFilters } from '@/lib/validation/wallets';
import type { AddressPage, AssetBalance, WalletView } from '@/lib/wallet-view';
import { describeFailure } from './errors';
import { redactAddress, redactWallet } from './redaction';
import { getRuntime } from './runtime';
import { custodyFor, custodyTransport, findWalletConnection, openApiKey } from './wallets';

export type Loaded<T> = { ok: true; data: T } | { ok: false; status: number; error: string };

const NOT_CONNECTED = 'This wallet is not connected to the console.';

// Extension of the service (`GET /v1/wallets/{walletId}/balances`, also served by the sandbox); the typed
// client has no function for it yet, so it is read here and ignored where the service lacks it.
const balancesEnvelope = z.looseObject({
  data: z.array(
    z.looseObject({
      asset: z.looseObject({
        id: z.string(),
        isActive: z.boolean().optional(),
        asset: z.looseObject({ id: z.string(), symbol: z.string(), decimals: z.number() }),
      }),
      balance: z.union([z.string(), z.number()]).transform(String),
      convertedBalance: z.union([z.string(), z.number()]).nullable().optional(),
    }),
  ),
  message: z.string(),
  statusCode: z.number().optional(),
});

async function readBalances(walletId: string) {
  const runtime = await getRuntime();
  const row = await findWalletConnection(walletId, runtime.database.db as ConsoleDb);
  if (!row) return null;
  const transport = createTransport({
    ...custodyTransport(runtime),
    apiKey: openApiKey(runtime, row.id, row.apiKeySealed),
  });
  try {
    const { data } = await transport.request({
      method: 'GET',
      path: path`/v1/wallets/${walletId}/balances`,
      schema: balancesEnvelope,
      idempotent: true,
    });
    return data;
  } catch (error) {
    // A service without the extension: fall back to #4's totals.
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
  if (!client) return { ok: false, status: 404, error: NOT_CONNECTED };
  try {
    const [walletResult, balanceRows] = await Promise.all([
      client.wallets.get({ walletId }),
      readBalances(walletId).catch(() => null),
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
  if (!client) return { ok: false, status: 404, error: NOT_CONNECTED };
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
    const { message, status } = describeFailure(error, requestId, `addresses of ${walletId}`);
    return { ok: false, status, error: message };
  }
}

/** #5, redacted (never read with showPrivateKey here: revealing is its own audited action). */
export async function loadAddress(
  walletId: string,
  addressId: string,
  requestId: string | null = null,
): Promise<Loaded<Address>> {
  const client = await custodyFor(walletId);
  if (!client) return { ok: false, status: 404, error: NOT_CONNECTED };
  try {
    const { data } = await client.addresses.get({ walletId, addressId });
    return { ok: true, data: redactAddress(data) };
  } catch (error) {
    const { message, status } = describeFailure(error, requestId, `address ${addressId}`);
    return { ok: false, status, error: message };
  }
}
