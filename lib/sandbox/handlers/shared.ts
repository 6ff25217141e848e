import 'server-only';
// Lookups and checks several resources share.
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { getAddress, isAddress } from 'viem';
import { type AddressRow, type AssetRow, HttpError, invalid, notFound, type WalletRow } from '../context';
import type { SandboxCore } from '../core';
import { sandboxTransactions } from '../db/schema';
import { ContractRevertError } from '../erc20';

/** The spec's batch limits (min 1, max 20 operations). */
const MAX_BATCH = 20;
export const ORDERS = ['RECOMMENDED', 'FASTEST', 'CHEAPEST', 'NO_SLIPPAGE'];
export const AML_CLEAR = { message: 'Address is not sanctioned', provider: 'ofac', status: 'success' };
const UUID = /^[0-9a-f-]{36}$/i;

export function isUuidLike(id: string): boolean {
  return UUID.test(id);
}

export function batchBounds(items: unknown[], what: string) {
  if (items.length < 1 || items.length > MAX_BATCH) {
    throw invalid(`${what} must contain between 1 and ${MAX_BATCH} operations (got ${items.length})`);
  }
}

export function checkAddress(value: string, what = 'address'): `0x${string}` {
  if (!isAddress(value)) throw invalid(`Invalid ${what}: ${value} is not a valid EVM address`);
  return getAddress(value);
}

/** An address of the wallet (internal or whitelisted), or 404. */
export function addressOf(core: SandboxCore, wallet: WalletRow, addressId: string | undefined): AddressRow {
  const row = addressId ? core.catalog.addresses.get(addressId) : undefined;
  if (!row || row.walletId !== wallet.id) throw notFound('Address');
  return row;
}

/** An asset the wallet holds, by wallet-asset or asset id, or 422. */
export function walletAssetOf(core: SandboxCore, wallet: WalletRow, id: string): AssetRow {
  const asset = core.catalog.resolveWalletAsset(wallet, id);
  if (!asset) throw invalid(`Asset ${id} is not an asset of this wallet`);
  return asset;
}

/** A transaction of the wallet, or 404. */
export async function transactionOf(core: SandboxCore, wallet: WalletRow, id: string) {
  if (!isUuidLike(id)) throw notFound('Transaction');
  const [row] = await core.db
    .select()
    .from(sandboxTransactions)
    .where(and(eq(sandboxTransactions.id, id), eq(sandboxTransactions.walletId, wallet.id)));
  if (!row) throw notFound('Transaction');
  return row;
}

export function newReference(): string {
  return randomBytes(8).toString('base64url').replace(/[-_]/g, 'x');
}

/** The message of an expected failure, for a batch's `errors`; anything else is rethrown. */
export function messageOf(error: unknown): string {
  if (error instanceof HttpError || error instanceof ContractRevertError) return error.message;
  throw error;
}

export function shortMessage(error: unknown): string {
  if (
    error &&
    typeof error === 'object' &&
    'shortMessage' in error &&
    typeof error.shortMessage === 'string'
  ) {
    return error.shortMessage;
  }
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}
