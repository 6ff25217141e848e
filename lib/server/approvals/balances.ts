import 'server-only';
// Balances through the custody service's balances extension (`GET /v1/wallets/{id}/balances` and the child
// address form) as the approval engine uses them: per asset, with a USD price where the service gives one.
import { zeroAddress } from 'viem';
import { createCustodyClient, type TransportOptions } from '@/lib/custody';
import type { SourceBalance } from './types';

export async function fetchBalances(
  connection: TransportOptions,
  walletId: string,
  addressId?: string,
): Promise<SourceBalance[]> {
  const client = createCustodyClient(connection);
  const answer = addressId
    ? await client.addresses.balances({ walletId, addressId })
    : await client.wallets.balances({ walletId });
  return answer.data.map((row) => {
    const balance = Number(row.balance);
    const usd =
      row.convertedBalance === null || row.convertedBalance === undefined
        ? NaN
        : Number(row.convertedBalance);
    return {
      assetId: row.asset.id,
      symbol: row.asset.asset.symbol,
      decimals: row.asset.asset.decimals,
      isNative: (row.asset.asset.address ?? zeroAddress).toLowerCase() === zeroAddress,
      balance: row.balance,
      priceUsd: balance > 0 && Number.isFinite(usd) ? String(usd / balance) : null,
    };
  });
}

/** Prices per asset symbol from the master wallet and, where it holds none, from any child address given. */
export function pricesFrom(...lists: SourceBalance[][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const list of lists)
    for (const b of list) if (b.priceUsd && !out[b.symbol]) out[b.symbol] = b.priceUsd;
  return out;
}
