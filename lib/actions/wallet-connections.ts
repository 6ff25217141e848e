'use server';
import { revalidatePath } from 'next/cache';
import { type Actor, defineAction, ok, refuse } from '@/lib/actions/define-action';
import { CustodyError } from '@/lib/custody/errors';
import { type Capabilities, probeCapabilities } from '@/lib/server/capabilities';
import { describeFailure } from '@/lib/server/errors';
import { audit } from '@/lib/server/guard';
import { currentServices } from '@/lib/server/services';
import {
  deleteWalletConnection,
  insertWalletConnection,
  replaceWalletKey,
} from '@/lib/server/wallet-connections';
import {
  custodyClientWithKey,
  findWalletConnection,
  toSummary,
  type WalletSummary,
} from '@/lib/server/wallets';
import { connectWalletSchema, removeWalletSchema, rotateWalletKeySchema } from '@/lib/validation/wallets';

export type { WalletSummary };

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

// The audit entries below carry what the service answered (the wallet's name and network, the capabilities
// found), so these actions write them themselves. The API key is never part of an entry.

/** Connects a wallet by id and API key; the key is proven with a read before it is stored, sealed. */
export const connectWalletAction = defineAction({
  permission: 'wallets.manage',
  resource: 'wallets',
  input: connectWalletSchema,
  context: 'connect wallet',
  run: async ({ input: { walletId, apiKey }, actor }) => {
    if (await findWalletConnection(walletId))
      return refuse(ALREADY_CONNECTED, { fieldErrors: { walletId: ALREADY_CONNECTED } });
    const verified = await verifyKey(actor, walletId, apiKey);
    if (!verified.ok) {
      await audit(actor, 'wallet.connect', 'failed', { target: walletId, input: { walletId } });
      return refuse(verified.error, { fieldErrors: { apiKey: verified.error } });
    }
    const row = await insertWalletConnection(await currentServices(), verified.wallet, apiKey, actor.email);
    await audit(actor, 'wallet.connect', row ? 'success' : 'failed', {
      target: walletId,
      input: { walletId, name: verified.wallet.name, network: verified.wallet.network },
    });
    if (!row) return refuse(ALREADY_CONNECTED);
    // Which extensions the service answers decides how the wallet's pages read; never fails the connect.
    await probeCapabilities(walletId);
    refresh(walletId);
    return ok<WalletSummary>(toSummary(row));
  },
});

/** Replaces a wallet's key; the previous key keeps verifying webhooks for 24 hours. */
export const rotateWalletKeyAction = defineAction({
  permission: 'wallets.manage',
  resource: 'wallets',
  input: rotateWalletKeySchema,
  context: 'rotate wallet key',
  run: async ({ input: { walletId, apiKey }, actor }) => {
    if (!(await findWalletConnection(walletId))) return refuse(NO_LONGER_CONNECTED);
    // The new key is proven before the old one is replaced, so a typo cannot cut the console off.
    const verified = await verifyKey(actor, walletId, apiKey);
    if (!verified.ok) {
      await audit(actor, 'wallet.rotate_key', 'failed', { target: walletId, input: { walletId } });
      return refuse(verified.error, { fieldErrors: { apiKey: verified.error } });
    }
    const row = await replaceWalletKey(await currentServices(), walletId, apiKey);
    await audit(actor, 'wallet.rotate_key', row ? 'success' : 'failed', {
      target: walletId,
      input: { walletId },
    });
    if (!row) return refuse(NO_LONGER_CONNECTED);
    // A new key may reach a different service deployment: probe its extensions again.
    await probeCapabilities(walletId);
    refresh(walletId);
    return ok<WalletSummary>(toSummary(row));
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

/** Forgets a wallet and its key; the wallet itself stays at the custody service. */
export const removeWalletAction = defineAction({
  permission: 'wallets.manage',
  resource: 'wallets',
  input: removeWalletSchema,
  invalid: 'first-issue',
  context: 'remove wallet',
  run: async ({ input: { walletId }, actor }) => {
    const row = await deleteWalletConnection(await currentServices(), walletId);
    await audit(actor, 'wallet.remove', row ? 'success' : 'failed', {
      target: walletId,
      input: { walletId, name: row?.name },
    });
    if (!row) return refuse(NO_LONGER_CONNECTED);
    refresh(walletId);
    return ok({ id: row.id, name: row.name });
  },
});
