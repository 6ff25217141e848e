'use server';
import { z } from 'zod';
import { ActionRefusal, defineAction, ok } from '@/lib/actions/define-action';
import { CustodyError } from '@/lib/custody';
import { forgetWithdrawFormContext } from '@/lib/server/approvals';
import { depositAddressFormSchema, metadataObject } from '@/lib/validation/settlement';

export interface DepositAddressResult {
  id: string;
  address: string;
  name: string | null;
  derivationPath: string | null;
}

const inputSchema = z.object({ walletId: z.string().min(1).max(100), form: depositAddressFormSchema });

/** Said when the custody service has no create-address endpoint (a service with the spec's 23 only). */
const NOT_OFFERED =
  'This custody service does not offer new deposit addresses (POST /v1/wallets/{walletId}/addresses); create them in the service itself.';
/** Said when the answer was lost: the service may have created the address, so trying again could make two. */
const OUTCOME_UNKNOWN =
  'The custody service did not answer in time; it may have created the address. Look for it in the address list before trying again.';

/** Creates a deposit (child) address for a customer with the service's create-address extension. */
export const createDepositAddressAction = defineAction({
  permission: 'depositAddress.create',
  input: inputSchema,
  fieldsUnder: 'form',
  context: 'deposit address',
  audit: {
    action: 'depositAddress.create',
    input: ({ form }, data?: DepositAddressResult) => ({
      name: form.name,
      disableAutoSweep: form.disableAutoSweep,
      enableGaslessWithdraw: form.enableGaslessWithdraw,
      address: data?.address ?? null,
    }),
    target: ({ walletId }, data?: DepositAddressResult) => data?.id ?? walletId,
  },
  run: async ({ input: { walletId, form }, custody }) => {
    const client = await custody(walletId);
    try {
      const { data } = await client.addresses.create(
        { walletId },
        {
          name: form.name,
          metadata: metadataObject(form.metadata),
          disableAutoSweep: form.disableAutoSweep,
          enableGaslessWithdraw: form.enableGaslessWithdraw,
        },
      );
      // The withdrawal form lists the wallet's child addresses from a short-lived copy: the new address is
      // offered as a source at once, not only once that copy runs out.
      forgetWithdrawFormContext(walletId);
      return ok<DepositAddressResult>({
        id: data.id,
        address: data.address,
        name: data.name ?? null,
        derivationPath: data.derivationPath ?? null,
      });
    } catch (error) {
      // An unknown path is 404 without naming a missing resource ("Wallet not found" is the wallet's own).
      if (error instanceof CustodyError && error.status === 404 && !/not found/i.test(error.message)) {
        throw new ActionRefusal(NOT_OFFERED);
      }
      if (error instanceof CustodyError && error.outcomeUnknown) throw new ActionRefusal(OUTCOME_UNKNOWN);
      throw error;
    }
  },
});
