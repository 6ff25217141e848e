'use server';
import { z } from 'zod';
import type { Address } from '@/lib/custody/schemas';
import { describeFailure } from '@/lib/server/errors';
import { type ActionResult, audit, authorize } from '@/lib/server/guard';
import { custodyFor } from '@/lib/server/wallets';
import { checkEvmAddress } from '@/lib/validation/addresses';
import { whitelistFormSchema } from '@/lib/validation/settlement';

const inputSchema = z.object({ walletId: z.string().min(1), form: whitelistFormSchema });

export interface WhitelistResult {
  id: string;
  address: string;
  name: string | null;
  type: string;
  aml: { status: string; provider: string; message: string } | null;
}

export async function whitelistAddressAction(input: unknown): Promise<ActionResult<WhitelistResult>> {
  const authz = await authorize('whitelist.add');
  if (!authz.ok) return { ok: false, error: authz.error };
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues)
      fieldErrors[String(issue.path[1] ?? issue.path[0] ?? 'form')] ??= issue.message;
    return { ok: false, error: 'Check the highlighted fields.', fieldErrors };
  }
  const { walletId, form } = parsed.data;
  const client = await custodyFor(walletId);
  if (!client) return { ok: false, error: 'This wallet is not connected to the console.' };
  const checked = checkEvmAddress(form.address);
  const address = checked.ok ? checked.address : form.address;
  const privateKey = form.privateKey?.trim() || undefined;
  // The audit says only that a private key was given, never its value.
  const auditInput = {
    address,
    name: form.name || null,
    disableAutoSweep: form.disableAutoSweep,
    enableGaslessWithdraw: form.enableGaslessWithdraw,
    showPrivateKey: form.showPrivateKey,
    privateKeyGiven: Boolean(privateKey),
  };
  try {
    const result = await client.addresses.whitelist(
      { walletId },
      {
        address,
        name: form.name || undefined,
        metadata: form.metadata ? (JSON.parse(form.metadata) as Record<string, unknown>) : undefined,
        disableAutoSweep: form.disableAutoSweep,
        enableGaslessWithdraw: form.enableGaslessWithdraw,
        showPrivateKey: form.showPrivateKey,
        privateKey,
      },
    );
    const data: Address = result.data;
    await audit(authz.actor, 'whitelist.add', 'success', { target: data.id, input: auditInput });
    const aml = data.configurations?.aml;
    return {
      ok: true,
      data: {
        id: data.id,
        address: data.address,
        name: data.name ?? null,
        type: data.type,
        aml: aml ? { status: aml.status, provider: aml.provider, message: aml.message } : null,
      },
    };
  } catch (error) {
    await audit(authz.actor, 'whitelist.add', 'failed', { target: address, input: auditInput });
    return { ok: false, error: describeFailure(error, authz.actor.requestId, 'whitelist').message };
  }
}
