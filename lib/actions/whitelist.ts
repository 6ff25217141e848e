'use server';
import { z } from 'zod';
import { type RequestedChange, requestWalletChange } from '@/lib/actions/configuration-request';
import { type ActionResult, defineAction } from '@/lib/actions/define-action';
import { sealRequestSecret } from '@/lib/server/approvals';
import { privateKeyBinding } from '@/lib/server/approvals/operations/whitelist';
import { checkEvmAddress } from '@/lib/validation/addresses';
import { walletAddressSchema } from '@/lib/validation/custody-ids';
import { metadataObject, whitelistFormSchema } from '@/lib/validation/settlement';

// Whitelisting and removing are requests a second admin approves; the approval engine audits them and sends
// them to the custody service when the last approval lands.

const inputSchema = z.object({ walletId: z.string().min(1).max(100), form: whitelistFormSchema });

/**
 * Asks to whitelist an address (#6). A private key given with it is sealed into the request at once and sent
 * to the service once, at approval; the step-up and the audit see only whether one was given.
 */
export const whitelistAddressAction = defineAction({
  permission: 'whitelistAdd.request',
  input: inputSchema,
  fieldsUnder: 'form',
  target: (input) => input.walletId,
  context: 'whitelist',
  stepUp: ({ walletId, form: { privateKey, ...form } }) => ({
    change: 'whitelistAdd',
    walletId,
    ...form,
    privateKeyGiven: Boolean(privateKey?.trim()),
  }),
  run: async ({ input: { walletId, form }, actor }): Promise<ActionResult<RequestedChange>> => {
    const address = normalized(form.address);
    const privateKey = form.privateKey?.trim();
    return requestWalletChange(
      actor,
      'whitelistAdd',
      walletId,
      {
        address,
        ...(form.name ? { name: form.name } : {}),
        ...(form.metadata ? { metadata: metadataObject(form.metadata) } : {}),
        disableAutoSweep: form.disableAutoSweep,
        enableGaslessWithdraw: form.enableGaslessWithdraw,
        showPrivateKey: form.showPrivateKey,
        ...(privateKey
          ? { privateKeySealed: await sealRequestSecret(privateKey, privateKeyBinding(walletId, address)) }
          : {}),
      },
      'address',
    );
  },
});

function normalized(address: string): string {
  const checked = checkEvmAddress(address);
  return checked.ok ? checked.address : address;
}

/** Asks to remove a whitelisted (external) address, through the service's unwhitelist extension. */
export const removeWhitelistedAddressAction = defineAction({
  permission: 'whitelistRemove.request',
  input: walletAddressSchema,
  target: (input) => input.addressId,
  context: 'remove whitelisted address',
  stepUp: (input) => ({ change: 'whitelistRemove', ...input }),
  run: async ({ input: { walletId, addressId }, actor }): Promise<ActionResult<RequestedChange>> =>
    requestWalletChange(actor, 'whitelistRemove', walletId, { addressId }),
});
