import 'server-only';
// Every operation kind the approval engine knows, keyed by kind.
import type { OperationKind } from '@/lib/approvals/kinds';
import { isOperationKind } from '@/lib/approvals/kinds';
import { addressBookSaveOperation, coolingOffEditOperation } from './address-book';
import { beneficiaryDeleteOperation } from './beneficiary-delete';
import {
  freezeLiftOperation,
  policyEditOperation,
  privateKeyRevealOperation,
  userCreateOperation,
  userDisableOperation,
  userEnableOperation,
  userResetOperation,
  userRoleOperation,
  walletConnectOperation,
  walletRemoveOperation,
  walletRotateOperation,
} from './configuration';
import { contractSignOperation } from './contract-sign';
import { contractWriteOperation } from './contract-write';
import { limitEditOperation } from './limit-edit';
import { payoutOperation } from './payout';
import { payoutScheduleOperation } from './payout-schedule';
import { retryOperation } from './retry';
import { serviceTokenCreateOperation, serviceTokenRotateOperation } from './service-tokens';
import { settlementRuleOperation, settlementToggleOperation } from './settlement';
import { swapOperation } from './swap';
import { typedDataSignOperation } from './typed-data-sign';
import type { RegisteredOperation } from './types';
import { whitelistAddOperation, whitelistRemoveOperation } from './whitelist';
import { withdrawOperation } from './withdraw';
import { withdrawSignOperation } from './withdraw-sign';

export const OPERATION_TYPES: { readonly [K in OperationKind]: RegisteredOperation<K> } = {
  withdraw: withdrawOperation,
  withdrawSign: withdrawSignOperation,
  swap: swapOperation,
  typedDataSign: typedDataSignOperation,
  contractWrite: contractWriteOperation,
  contractSign: contractSignOperation,
  retry: retryOperation,
  payout: payoutOperation,
  userCreate: userCreateOperation,
  userReset: userResetOperation,
  userRole: userRoleOperation,
  userEnable: userEnableOperation,
  userDisable: userDisableOperation,
  policyEdit: policyEditOperation,
  limitEdit: limitEditOperation,
  freezeLift: freezeLiftOperation,
  walletConnect: walletConnectOperation,
  walletRotate: walletRotateOperation,
  walletRemove: walletRemoveOperation,
  addressBookSave: addressBookSaveOperation,
  coolingOffEdit: coolingOffEditOperation,
  serviceTokenCreate: serviceTokenCreateOperation,
  serviceTokenRotate: serviceTokenRotateOperation,
  payoutSchedule: payoutScheduleOperation,
  privateKeyReveal: privateKeyRevealOperation,
  settlementToggle: settlementToggleOperation,
  settlementRule: settlementRuleOperation,
  whitelistAdd: whitelistAddOperation,
  whitelistRemove: whitelistRemoveOperation,
  beneficiaryDelete: beneficiaryDeleteOperation,
};

/** Every registered kind, in the order admins see them. */
export const OPERATIONS: readonly RegisteredOperation[] = Object.values(OPERATION_TYPES);

export function operationType(key: string): RegisteredOperation | undefined {
  return isOperationKind(key) ? OPERATION_TYPES[key] : undefined;
}
