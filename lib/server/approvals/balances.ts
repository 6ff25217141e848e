import 'server-only';
// Balances through the custody service's balances extension (`GET /v1/wallets/{id}/balances` and the child
// address form), which the typed client does not cover; read-only and retried like any read.
import { zeroAddress } from 'viem';
import { z } from 'zod';
import { createTransport, path, type TransportOptions } from '@/lib/custody';
import type { SourceBalance } from './types';

const balancesEnvelope = z.object({
  data: z.array(
    z.looseObject({
      asset: z.looseObject({
        id: z.string(),
        isActive: z.boolean().optional(),
        asset: z.looseObject({
          symbol: z.string(),
          decimals: z.number(),
          address: z.string().nullable().optional(),
        }),
      }),
      balance: z.union([z.string(), z.number()]).transform(String),
      convertedBalance: z.union([z.string(), z.number()]).nullable().optional(),
    }),
  ),
  message: z.string(),
});

export async function fetchBalances(
  connection: TransportOptions,
  walletId: string,
  addressId?: string,
): Promise<SourceBalance[]> {
  const transport = createTransport(connection);
  const answer = await transport.request({
    method: 'GET',
    path: addressId
      ? path`/v1/wallets/${walletId}/addresses/${addressId}/balances`
      : path`/v1/wallets/${walletId}/balances`,
    schema: balancesEnvelope,
    idempotent: true,
  });
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
