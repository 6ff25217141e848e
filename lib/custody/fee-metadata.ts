// Who paid a transaction's network fee, read from its `feeMetadata`. The spec leaves that field's shape open; a
// withdrawal from a child address with gasless withdrawals on (`enableGaslessWithdraw`) names the master wallet
// as the payer: `{ gasless: true, feePaidBy: 'MASTER_WALLET', feePayerAddress }`.

export interface MasterWalletFeePayment {
  /** The master wallet's address as the transaction names it; null when it names none. */
  payerAddress: string | null;
}

/** The master wallet's payment of the fee when `feeMetadata` says it paid; null otherwise (the sender paid). */
export function masterWalletFeePayment(feeMetadata: unknown): MasterWalletFeePayment | null {
  if (typeof feeMetadata !== 'object' || feeMetadata === null || Array.isArray(feeMetadata)) return null;
  const { feePaidBy, feePayerAddress } = feeMetadata as Record<string, unknown>;
  if (feePaidBy !== 'MASTER_WALLET') return null;
  return {
    payerAddress: typeof feePayerAddress === 'string' && feePayerAddress !== '' ? feePayerAddress : null,
  };
}
