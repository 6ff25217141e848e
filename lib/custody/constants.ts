// The custody API's enumerations (shared/spec/custody-api.md), without zod: client code reads them from here;
// `schemas.ts` builds the zod schemas on them.
export const TRANSACTION_STATUSES = ['PENDING', 'SUCCESS', 'FAILED'] as const;
export const TRANSACTION_TYPES = [
  'DEPOSIT',
  'WITHDRAW',
  'SALVAGE',
  'SWAP',
  'CUSTOM_SMART_CONTRACT',
  'SIGNED',
] as const;
/** Values the `type` filter of the transaction lists accepts (spec #3). */
export const TRANSACTION_FILTER_TYPES = ['DEPOSIT', 'WITHDRAW', 'SALVAGE'] as const;
export const SORT_ORDERS = ['ASC', 'DESC'] as const;
/**
 * Fields the wallet-wide transaction list (extension) sorts by with `sort`; #3 sorts by date only. Amounts
 * compare as numbers, missing values come last in both directions, ties fall back to date, then id.
 */
export const TRANSACTION_SORT_FIELDS = ['createdAt', 'amount', 'amountUSD', 'type', 'status'] as const;
export const ADDRESS_TYPES = ['INTERNAL', 'EXTERNAL'] as const;

/**
 * Whether the custody service holds this address's private key: it derived INTERNAL addresses itself; an EXTERNAL
 * one is a whitelisted destination whose key lives elsewhere, so there is nothing to reveal.
 */
export function serviceHoldsKey(address: { type: string }): boolean {
  return address.type === 'INTERNAL';
}
/** Routing preference of swaps (#20) and auto-settlement rules (#10, #11). */
export const SETTLEMENT_ORDERS = ['RECOMMENDED', 'FASTEST', 'CHEAPEST', 'NO_SLIPPAGE'] as const;

export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export type TransactionFilterType = (typeof TRANSACTION_FILTER_TYPES)[number];
export type SettlementOrder = (typeof SETTLEMENT_ORDERS)[number];
export type SortOrder = (typeof SORT_ORDERS)[number];
export type TransactionSortField = (typeof TRANSACTION_SORT_FIELDS)[number];

/** What each routing preference means, in the words the forms and reviews show. */
export const ORDER_EXPLANATIONS: Record<SettlementOrder, string> = {
  RECOMMENDED: 'Balanced choice of route between cost and speed.',
  FASTEST: 'Settles as quickly as possible, whatever the fee.',
  CHEAPEST: 'Lowest fee, even if settlement takes longer.',
  NO_SLIPPAGE: 'Only routes that deliver the exact quoted amount.',
};
