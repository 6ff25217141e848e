import 'server-only';
// Extensions: the balances of the master wallet or of one child address, per asset with their USD value.
import { eq } from 'drizzle-orm';
import { formatUnits } from 'viem';
import { sandboxBalances } from '../db/schema';
import { usdValue } from '../money';
import { assetApi } from '../serialize';
import { type Call, endpoint, type Result, type SandboxContext } from './endpoint';
import { addressOf } from './shared';

async function balances({ core }: SandboxContext, { wallet, params }: Call<undefined>): Promise<Result> {
  const holder = params.addressId ? addressOf(core, wallet, params.addressId).address : wallet.address;
  const assets = core.catalog.walletAssetsOf(wallet.id);
  const rows = await core.db
    .select()
    .from(sandboxBalances)
    .where(eq(sandboxBalances.holder, holder.toLowerCase()));
  const data = assets.map(({ entry, asset }) => {
    const amount = BigInt(rows.find((r) => r.assetId === asset.id)?.amount ?? '0');
    return {
      asset: { id: entry.id, asset: assetApi(core.catalog, asset), isActive: entry.isActive },
      balance: formatUnits(amount, asset.decimals),
      convertedBalance: usdValue(amount, asset.decimals, asset.usdPrice),
    };
  });
  return {
    data,
    message: params.addressId
      ? 'Address balances fetched successfully'
      : 'Wallet balances fetched successfully',
  };
}

export const balanceEndpoints = [
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId/balances',
    summary: "Extension: the master wallet's balances",
    handle: balances,
  }),
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/balances',
    summary: "Extension: a child address's balances",
    handle: balances,
  }),
];
