import 'server-only';
// Every operation type the approval engine knows. Swaps, contract write and sign, and typed-data signing
// register here when they arrive.
import { contractSignOperation, contractWriteOperation } from './contract';
import { retryOperation } from './retry';
import { swapOperation } from './swap';
import { typedDataSignOperation } from './typed-data';
import type { OperationType } from './types';
import { withdrawOperation, withdrawSignOperation } from './withdraw';

// biome-ignore lint/suspicious/noExplicitAny: each entry has its own payload type.
export const OPERATION_TYPES: Record<string, OperationType<any>> = {
  withdraw: withdrawOperation,
  withdrawSign: withdrawSignOperation,
  swap: swapOperation,
  typedDataSign: typedDataSignOperation,
  contractWrite: contractWriteOperation,
  contractSign: contractSignOperation,
  retry: retryOperation,
};

// biome-ignore lint/suspicious/noExplicitAny: as above.
export function operationType(key: string): OperationType<any> | undefined {
  return Object.hasOwn(OPERATION_TYPES, key) ? OPERATION_TYPES[key] : undefined;
}
