'use server';
import type { z } from 'zod';
import { describeFailure } from '@/lib/server/errors';
import { type ActionResult, audit, authorize } from '@/lib/server/guard';
import { verifyPassword } from '@/lib/server/passwords';
import { getDb, getRuntime } from '@/lib/server/runtime';
import { findUserById } from '@/lib/server/users';
import { custodyFor, findWalletConnection, openApiKey } from '@/lib/server/wallets';
import { revealPrivateKeySchema, simulateDepositSchema } from '@/lib/validation/wallets';

function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) out[String(issue.path[0] ?? 'form')] ??= issue.message;
  return out;
}

/**
 * Reads the address with showPrivateKey (#5) after the admin re-enters their password, and returns the key in
 * this result only: it is never stored, cached, logged or put in the audit entry.
 */
export async function revealPrivateKeyAction(
  input: unknown,
): Promise<ActionResult<{ address: string; privateKey: string }>> {
  const target =
    typeof (input as { addressId?: unknown })?.addressId === 'string'
      ? (input as { addressId: string }).addressId
      : undefined;
  const authz = await authorize('privateKey.reveal', target ? `address:${target}` : undefined);
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  const parsed = revealPrivateKeySchema.safeParse(input);
  if (!parsed.success)
    return { ok: false, error: 'Check the highlighted fields.', fieldErrors: fieldErrorsOf(parsed.error) };
  const { walletId, addressId, password } = parsed.data;
  const auditTarget = `address:${addressId}`;
  const auditInput = { walletId, addressId };

  const user = await findUserById(await getDb(), authz.actor.id);
  if (!user || user.disabledAt || !(await verifyPassword(password, user.passwordHash))) {
    await audit(authz.actor, 'privateKey.reveal', 'failed', {
      target: auditTarget,
      input: { ...auditInput, reason: 'wrong password' },
    });
    const error = 'That password is not right.';
    return { ok: false, error, fieldErrors: { password: error } };
  }

  const client = await custodyFor(walletId);
  if (!client) return { ok: false, error: 'This wallet is not connected to the console.' };
  try {
    const { data } = await client.addresses.get({ walletId, addressId, showPrivateKey: true });
    const privateKey = (data as { privateKey?: unknown }).privateKey;
    if (typeof privateKey !== 'string' || privateKey === '') {
      await audit(authz.actor, 'privateKey.reveal', 'failed', {
        target: auditTarget,
        input: { ...auditInput, reason: 'no key returned' },
      });
      return {
        ok: false,
        error:
          'The custody service returned no private key for this address. Its configuration does not allow revealing it (showPrivateKey is off, or the service does not hold the key).',
      };
    }
    await audit(authz.actor, 'privateKey.reveal', 'success', { target: auditTarget, input: auditInput });
    return { ok: true, data: { address: data.address, privateKey } };
  } catch (error) {
    const { message } = describeFailure(error, authz.actor.requestId, 'reveal private key');
    await audit(authz.actor, 'privateKey.reveal', 'failed', {
      target: auditTarget,
      input: { ...auditInput, reason: 'upstream error' },
    });
    return { ok: false, error: message };
  }
}

interface DepositAnswer {
  message?: string;
  data?: { id?: string; status?: string; amount?: string; asset?: { symbol?: string } | null };
}

/** Sandbox mode only: asks the embedded service to simulate a deposit to this address (POST /control/deposits). */
export async function simulateDepositAction(
  input: unknown,
): Promise<ActionResult<{ transactionId: string; status: string; amount: string; symbol: string }>> {
  const authz = await authorize('sandbox.deposit', 'sandbox');
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  const runtime = await getRuntime();
  if (!runtime.sandbox) return { ok: false, error: 'Simulated deposits exist only in sandbox mode.' };
  const parsed = simulateDepositSchema.safeParse(input);
  if (!parsed.success)
    return { ok: false, error: 'Check the highlighted fields.', fieldErrors: fieldErrorsOf(parsed.error) };
  const { walletId, addressId, assetId, amount } = parsed.data;
  const connection = await findWalletConnection(walletId);
  if (!connection) return { ok: false, error: 'This wallet is not connected to the console.' };
  const auditInput = { walletId, addressId, assetId, amount };
  let answer: DepositAnswer | null = null;
  let status = 0;
  try {
    const response = await runtime.sandbox.handle(
      new Request('http://sandbox.internal/sandbox/control/deposits', {
        method: 'POST',
        headers: {
          'x-api-key': openApiKey(runtime, connection.id, connection.apiKeySealed),
          'content-type': 'application/json',
        },
        body: JSON.stringify({ addressId, assetId, amount }),
      }),
    );
    status = response.status;
    answer = (await response.json().catch(() => null)) as DepositAnswer | null;
  } catch (error) {
    const { message } = describeFailure(error, authz.actor.requestId, 'simulate deposit');
    await audit(authz.actor, 'sandbox.deposit', 'failed', {
      target: `address:${addressId}`,
      input: auditInput,
    });
    return { ok: false, error: message };
  }
  if (status !== 200 || !answer?.data?.id) {
    await audit(authz.actor, 'sandbox.deposit', 'failed', {
      target: `address:${addressId}`,
      input: auditInput,
    });
    return { ok: false, error: answer?.message ?? `The sandbox answered ${status}.` };
  }
  await audit(authz.actor, 'sandbox.deposit', 'success', {
    target: `transaction:${answer.data.id}`,
    input: auditInput,
  });
  return {
    ok: true,
    data: {
      transactionId: answer.data.id,
      status: answer.data.status ?? 'PENDING',
      amount: answer.data.amount ?? amount,
      symbol: answer.data.asset?.symbol ?? '',
    },
  };
}
