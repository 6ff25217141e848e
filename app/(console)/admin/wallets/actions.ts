'use server';
import { revalidatePath } from 'next/cache';
import type { z } from 'zod';
import { CustodyError } from '@/lib/custody/errors';
import { type Capabilities, probeCapabilities } from '@/lib/server/capabilities';
import { describeFailure } from '@/lib/server/errors';
import { type ActionResult, type Actor, audit, authorize } from '@/lib/server/guard';
import { getRuntime } from '@/lib/server/runtime';
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

function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) out[String(issue.path[0] ?? 'form')] ??= issue.message;
  return out;
}

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

export async function connectWalletAction(input: unknown): Promise<ActionResult<WalletSummary>> {
  const authz = await authorize('wallets.manage', 'wallets');
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  const parsed = connectWalletSchema.safeParse(input);
  if (!parsed.success)
    return { ok: false, error: 'Check the highlighted fields.', fieldErrors: fieldErrorsOf(parsed.error) };
  const { walletId, apiKey } = parsed.data;
  const runtime = await getRuntime();
  if (await findWalletConnection(walletId)) {
    const error = 'This wallet is already connected. Rotate its key instead.';
    return { ok: false, error, fieldErrors: { walletId: error } };
  }
  const verified = await verifyKey(authz.actor, walletId, apiKey);
  if (!verified.ok) {
    await audit(authz.actor, 'wallet.connect', 'failed', { target: walletId, input: { walletId } });
    return { ok: false, error: verified.error, fieldErrors: { apiKey: verified.error } };
  }
  const row = await insertWalletConnection(runtime, verified.wallet, apiKey, authz.actor.email);
  await audit(authz.actor, 'wallet.connect', row ? 'success' : 'failed', {
    target: walletId,
    input: { walletId, name: verified.wallet.name, network: verified.wallet.network },
  });
  if (!row) return { ok: false, error: 'This wallet is already connected. Rotate its key instead.' };
  // Which extensions the service answers decides how the wallet's pages read; never fails the connect.
  await probeCapabilities(walletId);
  refresh(walletId);
  return { ok: true, data: toSummary(row) };
}

export async function rotateWalletKeyAction(input: unknown): Promise<ActionResult<WalletSummary>> {
  const authz = await authorize('wallets.manage', 'wallets');
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  const parsed = rotateWalletKeySchema.safeParse(input);
  if (!parsed.success)
    return { ok: false, error: 'Check the highlighted fields.', fieldErrors: fieldErrorsOf(parsed.error) };
  const { walletId, apiKey } = parsed.data;
  if (!(await findWalletConnection(walletId)))
    return { ok: false, error: 'This wallet is no longer connected.' };
  // The new key is proven before the old one is replaced, so a typo cannot cut the console off.
  const verified = await verifyKey(authz.actor, walletId, apiKey);
  if (!verified.ok) {
    await audit(authz.actor, 'wallet.rotate_key', 'failed', { target: walletId, input: { walletId } });
    return { ok: false, error: verified.error, fieldErrors: { apiKey: verified.error } };
  }
  const row = await replaceWalletKey(await getRuntime(), walletId, apiKey);
  await audit(authz.actor, 'wallet.rotate_key', row ? 'success' : 'failed', {
    target: walletId,
    input: { walletId },
  });
  if (!row) return { ok: false, error: 'This wallet is no longer connected.' };
  // A new key may reach a different service deployment: probe its extensions again.
  await probeCapabilities(walletId);
  refresh(walletId);
  return { ok: true, data: toSummary(row) };
}

/** Probes the wallet's service for its extension endpoints again (e.g. after the service was upgraded). */
export async function recheckCapabilitiesAction(
  input: unknown,
): Promise<ActionResult<{ capabilities: Capabilities; checkedAt: string | null }>> {
  const authz = await authorize('wallets.manage', 'wallets');
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  const parsed = removeWalletSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? 'Invalid input' };
  const { walletId } = parsed.data;
  if (!(await findWalletConnection(walletId)))
    return { ok: false, error: 'This wallet is no longer connected.' };
  const capabilities = await probeCapabilities(walletId);
  const row = await findWalletConnection(walletId);
  await audit(authz.actor, 'wallet.capabilities_check', row?.capabilitiesCheckedAt ? 'success' : 'failed', {
    target: walletId,
    input: { walletId, capabilities },
  });
  refresh(walletId);
  return {
    ok: true,
    data: { capabilities, checkedAt: row?.capabilitiesCheckedAt?.toISOString() ?? null },
  };
}

export async function removeWalletAction(
  input: unknown,
): Promise<ActionResult<{ id: string; name: string }>> {
  const authz = await authorize('wallets.manage', 'wallets');
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  const parsed = removeWalletSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? 'Invalid input' };
  const row = await deleteWalletConnection(await getRuntime(), parsed.data.walletId);
  await audit(authz.actor, 'wallet.remove', row ? 'success' : 'failed', {
    target: parsed.data.walletId,
    input: { walletId: parsed.data.walletId, name: row?.name },
  });
  if (!row) return { ok: false, error: 'This wallet is no longer connected.' };
  refresh(parsed.data.walletId);
  return { ok: true, data: { id: row.id, name: row.name } };
}
