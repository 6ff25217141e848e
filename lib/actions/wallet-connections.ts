'use server';
import { revalidatePath } from 'next/cache';
import { type RequestedChange, requestConfigurationChange } from '@/lib/actions/configuration-request';
import { type Actor, defineAction, ok, refuse } from '@/lib/actions/define-action';
import { CustodyError } from '@/lib/custody/errors';
import { type Capabilities, probeCapabilities } from '@/lib/server/capabilities';
import { describeFailure } from '@/lib/server/errors';
import { audit } from '@/lib/server/guard';
import { currentServices } from '@/lib/server/services';
import {
  custodyClientWithKey,
  findWalletConnection,
  sealApiKey,
  type WalletSummary,
} from '@/lib/server/wallets';
import { connectWalletSchema, removeWalletSchema, rotateWalletKeySchema } from '@/lib/validation/wallets';

export type { RequestedChange, WalletSummary };

export interface CapabilitiesCheck {
  capabilities: Capabilities;
  checkedAt: string | null;
}

const ALREADY_CONNECTED = 'This wallet is already connected. Rotate its key instead.';
const NO_LONGER_CONNECTED = 'This wallet is no longer connected.';

/** Reads the wallet (#4) with the key: proves the key works for this wallet before anything is stored. */
async function verifyKey(actor: Actor, walletId: string, apiKey: string) {
  try {
    const client = await custodyClientWithKey(apiKey);
    const { data } = await client.wallets.get({ walletId });
    if (data.id !== walletId)
      return { ok: false as const, error: 'The custody service answered for a different wallet.' };
    return { ok: true as const, wallet: data };
  } catch (error) {
    const { message } = describeFailure(error, actor.requestId, `verify key of ${walletId}`);
    const refused = error instanceof CustodyError && error.status >= 400 && error.status < 500;
    const prefix = refused ? `The custody service refused this key for this wallet (${error.status}): ` : '';
    return { ok: false as const, error: `${prefix}${message}` };
  }
}

function refresh(walletId?: string) {
  revalidatePath('/admin/wallets');
  revalidatePath('/wallets');
  if (walletId) revalidatePath(`/wallets/${walletId}`, 'layout');
}

// Connecting, rotating and removing are configuration changes a second admin approves. The key is proven with
// a read before the request is filed, then travels sealed in the request's payload (the review shows its last
// four characters); it is never part of an audit entry, an event or a review.

/** Sealed as the wallet registry seals keys, bound to the wallet id. */
async function sealed(walletId: string, apiKey: string) {
  return {
    apiKeySealed: sealApiKey(await currentServices(), walletId, apiKey),
    apiKeyLast4: apiKey.slice(-4),
  };
}

/** Asks to connect a wallet by id and API key; the key is proven with a read before the request is filed. */
export const connectWalletAction = defineAction({
  permission: 'walletConnect.request',
  resource: 'wallets',
  input: connectWalletSchema,
  context: 'connect wallet',
  stepUp: ({ walletId }) => ({ change: 'walletConnect', walletId }),
  run: async ({ input: { walletId, apiKey }, actor }) => {
    if (await findWalletConnection(walletId))
      return refuse(ALREADY_CONNECTED, { fieldErrors: { walletId: ALREADY_CONNECTED } });
    const verified = await verifyKey(actor, walletId, apiKey);
    if (!verified.ok) {
      await audit(actor, 'wallet.connect', 'failed', { target: walletId, input: { walletId } });
      return refuse(verified.error, { fieldErrors: { apiKey: verified.error } });
    }
    const { wallet } = verified;
    return requestConfigurationChange(actor, 'walletConnect', {
      id: wallet.id,
      name: wallet.name,
      network: wallet.network,
      blockchain: wallet.blockchain.slug,
      address: wallet.address,
      ...(await sealed(walletId, apiKey)),
    });
  },
});

/** Asks to replace a wallet's key; once approved, the previous key keeps verifying webhooks for 24 hours. */
export const rotateWalletKeyAction = defineAction({
  permission: 'walletRotate.request',
  resource: 'wallets',
  input: rotateWalletKeySchema,
  context: 'rotate wallet key',
  stepUp: ({ walletId }) => ({ change: 'walletRotate', walletId }),
  run: async ({ input: { walletId, apiKey }, actor }) => {
    if (!(await findWalletConnection(walletId))) return refuse(NO_LONGER_CONNECTED);
    // The new key is proven before it is requested, so a typo cannot cut the console off.
    const verified = await verifyKey(actor, walletId, apiKey);
    if (!verified.ok) {
      await audit(actor, 'wallet.rotate_key', 'failed', { target: walletId, input: { walletId } });
      return refuse(verified.error, { fieldErrors: { apiKey: verified.error } });
    }
    return requestConfigurationChange(actor, 'walletRotate', {
      walletId,
      ...(await sealed(walletId, apiKey)),
    });
  },
});

/** Probes the wallet's service for its extension endpoints again (e.g. after the service was upgraded). */
export const recheckCapabilitiesAction = defineAction({
  permission: 'wallets.manage',
  resource: 'wallets',
  input: removeWalletSchema,
  invalid: 'first-issue',
  context: 'check capabilities',
  run: async ({ input: { walletId }, actor }) => {
    if (!(await findWalletConnection(walletId))) return refuse(NO_LONGER_CONNECTED);
    const capabilities = await probeCapabilities(walletId);
    const row = await findWalletConnection(walletId);
    await audit(actor, 'wallet.capabilities_check', row?.capabilitiesCheckedAt ? 'success' : 'failed', {
      target: walletId,
      input: { walletId, capabilities },
    });
    refresh(walletId);
    return ok<CapabilitiesCheck>({
      capabilities,
      checkedAt: row?.capabilitiesCheckedAt?.toISOString() ?? null,
    });
  },
});

/** Asks to forget a wallet and its key; the wallet itself stays at the custody service. */
export const removeWalletAction = defineAction({
  permission: 'walletRemove.request',
  resource: 'wallets',
  input: removeWalletSchema,
  invalid: 'first-issue',
  context: 'remove wallet',
  stepUp: ({ walletId }) => ({ change: 'walletRemove', walletId }),
  run: async ({ input: { walletId }, actor }) => {
    if (!(await findWalletConnection(walletId))) return refuse(NO_LONGER_CONNECTED);
    return requestConfigurationChange(actor, 'walletRemove', { walletId });
  },
});
