import 'server-only';
// Extensions: the balances of the master wallet or of one child address, per asset with their USD value, and
// the balance of one asset (`?assetId=`, Blockradar's Get Balance), which saves reading them all.
import { and, eq } from 'drizzle-orm';
import { formatUnits } from 'viem';
import { z } from 'zod';
import { schemas } from '@/lib/custody/schemas';
import { type AssetRow, invalid, type WalletAssetRow, type WalletRow } from '../context';
import type { SandboxCore } from '../core';
import { sandboxBalances } from '../db/schema';
import { usdValue } from '../money';
import { assetApi } from '../serialize';
import { type Call, endpoint, type Result, type SandboxContext } from './endpoint';
import { addressOf, walletAssetOf } from './shared';

/** One asset's balance: the wallet-asset entry (with its own timestamps), the amount and its USD value. */
function balanceItem(core: SandboxCore, entry: WalletAssetRow, asset: AssetRow, amount: bigint) {
  return {
    asset: {
      id: entry.id,
      asset: assetApi(core.catalog, asset),
      isActive: entry.isActive,
      createdAt: entry.createdAt.toISOString(),
      updatedAt: entry.updatedAt.toISOString(),
    },
    balance: formatUnits(amount, asset.decimals),
    convertedBalance: usdValue(amount, asset.decimals, asset.usdPrice),
  };
}

function holderOf(core: SandboxCore, wallet: WalletRow, addressId: string | undefined): string {
  return (addressId ? addressOf(core, wallet, addressId).address : wallet.address).toLowerCase();
}

async function balances({ core }: SandboxContext, { wallet, params }: Call<undefined>): Promise<Result> {
  const holder = holderOf(core, wallet, params.addressId);
  const assets = core.catalog.walletAssetsOf(wallet.id);
  const rows = await core.db.select().from(sandboxBalances).where(eq(sandboxBalances.holder, holder));
  const data = assets.map(({ entry, asset }) =>
    balanceItem(core, entry, asset, BigInt(rows.find((r) => r.assetId === asset.id)?.amount ?? '0')),
  );
  return {
    data,
    message: params.addressId
      ? 'Address balances fetched successfully'
      : 'Wallet balances fetched successfully',
  };
}

async function balance(
  { core }: SandboxContext,
  { wallet, params, query }: Call<undefined>,
): Promise<Result> {
  const holder = holderOf(core, wallet, params.addressId);
  const assetId = query.get('assetId')?.trim();
  if (!assetId) throw invalid('assetId is required');
  // Either id the wallet's asset list hands out (the wallet-asset id) or the asset's own id.
  const asset = walletAssetOf(core, wallet, assetId);
  const entry = core.catalog.walletAssetEntry(wallet.id, asset.id);
  if (!entry) throw invalid(`Asset ${assetId} is not an asset of this wallet`);
  const [row] = await core.db
    .select()
    .from(sandboxBalances)
    .where(and(eq(sandboxBalances.holder, holder), eq(sandboxBalances.assetId, asset.id)));
  return {
    data: balanceItem(core, entry, asset, BigInt(row?.amount ?? '0')),
    message: params.addressId
      ? 'Address balance fetched successfully'
      : 'Wallet balance fetched successfully',
  };
}

const ASSET_ID = {
  name: 'assetId',
  description: 'The asset to read: the wallet-asset id from the wallet, or the asset id',
};

export const balanceEndpoints = [
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId/balances',
    summary: "Extension: the master wallet's balances",
    response: { data: z.array(schemas.assetBalance) },
    handle: balances,
  }),
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/balances',
    summary: "Extension: a child address's balances",
    response: { data: z.array(schemas.assetBalance) },
    handle: balances,
  }),
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId/balance',
    summary: "Extension: the master wallet's balance of one asset",
    response: { data: schemas.assetBalance },
    query: [ASSET_ID],
    handle: balance,
  }),
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/balance',
    summary: "Extension: a child address's balance of one asset",
    response: { data: schemas.assetBalance },
    query: [ASSET_ID],
    handle: balance,
  }),
];
