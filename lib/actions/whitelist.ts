'use server';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { ActionRefusal, defineAction, ok } from '@/lib/actions/define-action';
import { CustodyError } from '@/lib/custody';
import { checkEvmAddress } from '@/lib/validation/addresses';
import { walletAddressSchema } from '@/lib/validation/custody-ids';
import { metadataObject, whitelistFormSchema } from '@/lib/validation/settlement';

export interface WhitelistResult {
  id: string;
  address: string;
  name: string | null;
  type: string;
  aml: { status: string; provider: string; message: string } | null;
}

const inputSchema = z.object({ walletId: z.string().min(1), form: whitelistFormSchema });

/** Adds an address to the wallet's whitelist (#8). The audit says only that a private key was given. */
export const whitelistAddressAction = defineAction({
  permission: 'whitelist.add',
  input: inputSchema,
  fieldsUnder: 'form',
  context: 'whitelist',
  audit: {
    action: 'whitelist.add',
    input: ({ form }) => ({
      address: normalized(form.address),
      name: form.name || null,
      disableAutoSweep: form.disableAutoSweep,
      enableGaslessWithdraw: form.enableGaslessWithdraw,
      showPrivateKey: form.showPrivateKey,
      privateKeyGiven: Boolean(form.privateKey?.trim()),
    }),
    target: ({ form }, data?: WhitelistResult) => data?.id ?? normalized(form.address),
  },
  run: async ({ input: { walletId, form }, custody }) => {
    const client = await custody(walletId);
    const { data } = await client.addresses.whitelist(
      { walletId },
      {
        address: normalized(form.address),
        name: form.name || undefined,
        metadata: metadataObject(form.metadata),
        disableAutoSweep: form.disableAutoSweep,
        enableGaslessWithdraw: form.enableGaslessWithdraw,
        showPrivateKey: form.showPrivateKey,
        privateKey: form.privateKey?.trim() || undefined,
      },
    );
    const aml = data.configurations?.aml;
    return ok<WhitelistResult>({
      id: data.id,
      address: data.address,
      name: data.name ?? null,
      type: data.type,
      aml: aml ? { status: aml.status, provider: aml.provider, message: aml.message } : null,
    });
  },
});

function normalized(address: string): string {
  const checked = checkEvmAddress(address);
  return checked.ok ? checked.address : address;
}

/**
 * Removes a whitelisted (external) address through the service's unwhitelist extension, where the service
 * offers it. Removing trust needs no second person; adding it back is a new whitelisting.
 */
export const removeWhitelistedAddressAction = defineAction({
  permission: 'whitelist.remove',
  input: walletAddressSchema,
  context: 'remove whitelisted address',
  audit: {
    action: 'whitelist.remove',
    input: ({ walletId }, data?: WhitelistResult) => ({
      walletId,
      address: data?.address ?? null,
      name: data?.name ?? null,
    }),
    target: ({ addressId }) => addressId,
  },
  run: async ({ input: { walletId, addressId }, custody }) => {
    const client = await custody(walletId);
    const { data } = await client.addresses
      .removeWhitelisted({ walletId, addressId })
      .catch((error: unknown) => {
        // An unknown path is 404 without naming a missing resource ("Address not found" is the address's own).
        if (error instanceof CustodyError && error.status === 404 && !/not found/i.test(error.message)) {
          throw new ActionRefusal(
            'This custody service does not offer removing whitelisted addresses; remove it in the service itself.',
          );
        }
        throw error;
      });
    revalidatePath(`/wallets/${walletId}/addresses`);
    return ok<WhitelistResult>({
      id: data.id,
      address: data.address,
      name: data.name ?? null,
      type: data.type,
      aml: null,
    });
  },
});
