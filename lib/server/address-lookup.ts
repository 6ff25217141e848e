import 'server-only';
// "Type an address id" in the request forms: the id checked with the custody service (#5) before a form
// offers it or an action accepts it as a source.
import { z } from 'zod';
import { describeFailure, WALLET_NOT_CONNECTED } from './errors';
import { type ActionResult, authorize } from './guard';
import type { Action } from './permissions';
import { addressOption, type CheckedAddress, checkChildAddress, isAddressId } from './wallet-addresses';
import { custodyFor } from './wallets';

/**
 * Server side of "type an address id": session and permission first, then the id checked with #5. Each
 * form's actions module wraps it with the permission of its own operation.
 */
export async function lookUpTypedAddress(
  permission: Action,
  input: unknown,
): Promise<ActionResult<{ id: string; label: string; address: string }>> {
  const parsed = typedAddressInput.safeParse(input);
  const authz = await authorize(permission, parsed.success ? parsed.data.walletId : undefined);
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  if (!parsed.success) {
    const error = 'An address id is a UUID.';
    return { ok: false, error, fieldErrors: { addressId: error } };
  }
  const client = await custodyFor(parsed.data.walletId);
  if (!client) return { ok: false, error: WALLET_NOT_CONNECTED, status: 404 };
  try {
    const checked = await checkChildAddress(client, parsed.data.walletId, parsed.data.addressId);
    if (!checked.ok) return { ok: false, error: checked.error, fieldErrors: { addressId: checked.error } };
    return { ok: true, data: addressOption(checked.address) };
  } catch (error) {
    return { ok: false, error: describeFailure(error, authz.actor.requestId, 'address lookup').message };
  }
}

const typedAddressInput = z.object({
  walletId: z.string().min(1).max(100),
  addressId: z.string().trim().refine(isAddressId),
});

/**
 * A source a request names that is not on the form's list (typed by hand): accepted only when #5 confirms
 * it is an active child address of the wallet.
 */
export async function verifyTypedSource(walletId: string, addressId: string): Promise<CheckedAddress> {
  const client = await custodyFor(walletId);
  if (!client) return { ok: false, error: WALLET_NOT_CONNECTED };
  return checkChildAddress(client, walletId, addressId);
}
