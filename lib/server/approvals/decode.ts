import 'server-only';
// Signed raw transactions (#14) decoded for people: recipient, amount or token transfer, nonce, gas, chain.
import { decodeFunctionData, erc20Abi, formatEther, formatUnits, type Hex, parseTransaction } from 'viem';
import type { DecodedSignedTransaction as DecodedTransaction } from '@/lib/approvals/withdrawals';

/** `decimals`: of the token, to show a token transfer's amount (the bytes carry base units only). */
export function decodeSignedTransaction(serialized: string, decimals?: number): DecodedTransaction {
  try {
    const tx = parseTransaction(serialized as Hex);
    let tokenTransfer: DecodedTransaction['tokenTransfer'] = null;
    if (tx.data && tx.data !== '0x' && tx.to) {
      try {
        const call = decodeFunctionData({ abi: erc20Abi, data: tx.data });
        if (call.functionName === 'transfer') {
          const [recipient, amount] = call.args as readonly [string, bigint];
          tokenTransfer = {
            token: tx.to,
            recipient,
            rawAmount: amount.toString(),
            amount: decimals === undefined ? amount.toString() : formatUnits(amount, decimals),
          };
        }
      } catch {
        // Not an ERC-20 transfer: shown as a plain call.
      }
    }
    const gwei = (v: bigint | undefined) => (v === undefined ? null : `${formatUnits(v, 9)} gwei`);
    return {
      type: tx.type ?? 'legacy',
      chainId: tx.chainId ?? null,
      nonce: tx.nonce ?? null,
      gas: tx.gas === undefined ? null : tx.gas.toString(),
      maxFeePerGas: gwei(tx.maxFeePerGas),
      maxPriorityFeePerGas: gwei(tx.maxPriorityFeePerGas),
      gasPrice: gwei(tx.gasPrice),
      to: tx.to ?? null,
      value: formatEther(tx.value ?? 0n),
      tokenTransfer,
    };
  } catch (error) {
    return {
      type: 'unknown',
      chainId: null,
      nonce: null,
      gas: null,
      maxFeePerGas: null,
      maxPriorityFeePerGas: null,
      gasPrice: null,
      to: null,
      value: '0',
      tokenTransfer: null,
      error: error instanceof Error ? error.message.split('\n')[0] : 'Unreadable transaction',
    };
  }
}
