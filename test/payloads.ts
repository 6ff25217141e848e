// Requests the database tests make again and again.

/** A withdrawal from the wallet's master address of `amount` of one asset to the test recipient 0x…aa. */
export function masterWithdrawal(asset: { id: string; symbol: string; decimals: number }, amount: string) {
  return {
    source: { kind: 'master' as const },
    items: [
      {
        assetId: asset.id,
        symbol: asset.symbol,
        decimals: asset.decimals,
        address: '0x00000000000000000000000000000000000000aa',
        amount,
      },
    ],
  };
}
