'use server';
import { requestConfigurationChange } from '@/lib/actions/configuration-request';
import { defineAction, ok, refuse, WALLET_NOT_CONNECTED } from '@/lib/actions/define-action';
import { serviceHoldsKey } from '@/lib/custody/constants';
import { getApprovalEngine } from '@/lib/server/approvals';
import { audit } from '@/lib/server/guard';
import { verifyPassword } from '@/lib/server/passwords';
import { currentDb, currentServices } from '@/lib/server/services';
import { findUserById } from '@/lib/server/users';
import { findWalletConnection, openApiKey } from '@/lib/server/wallets';
import {
  privateKeyRevealRequestSchema,
  revealPrivateKeySchema,
  simulateDepositSchema,
} from '@/lib/validation/wallets';

export interface RevealedKey {
  address: string;
  privateKey: string;
}

const EXTERNAL_NO_KEY =
  'This is an external address: the custody service does not hold its private key, so there is none to reveal.';

const NO_KEY_RETURNED =
  'The custody service returned no private key for this address. Its configuration does not allow revealing it (showPrivateKey is off, or the service does not hold the key).';

/**
 * Asks to see an address's private key: whoever holds it moves the address's funds without the console, so a
 * second admin approves, and only then may the asker see it, once. The address is read now, so the review names it.
 */
export const requestPrivateKeyRevealAction = defineAction({
  permission: 'privateKeyReveal.request',
  resource: 'private keys',
  input: privateKeyRevealRequestSchema,
  target: ({ addressId }) => `address:${addressId}`,
  context: 'ask to reveal a private key',
  stepUp: ({ walletId, addressId }) => ({ change: 'privateKeyReveal', walletId, addressId }),
  run: async ({ input: { walletId, addressId }, actor, custody }) => {
    const client = await custody(walletId);
    const address = (await client.addresses.get({ walletId, addressId })).data;
    // No request is filed for a key nobody here holds: a second admin would approve a reveal that cannot happen.
    if (!serviceHoldsKey(address)) return refuse(EXTERNAL_NO_KEY, { status: 422 });
    return requestConfigurationChange(actor, 'privateKeyReveal', {
      walletId,
      addressId,
      address: address.address,
      addressName: address.name ?? null,
    });
  },
});

/**
 * Shows an address's private key to the admin whose request to see it a second admin approved: once, within its
 * time, after they re-enter their password. Reads the address with showPrivateKey (#5) and returns the key in this
 * result only: it is never stored, cached, logged or put in the audit entry. Each attempt is audited with the
 * reason it failed, so the entries are written here.
 */
export const revealPrivateKeyAction = defineAction({
  // Read from the input so a refused attempt is audited against the address.
  permission: () => 'privateKey.reveal',
  target: ({ addressId }) => `address:${addressId}`,
  input: revealPrivateKeySchema,
  context: 'reveal private key',
  stepUp: ({ walletId, addressId, requestId }) => ({ walletId, addressId, requestId }),
  name: 'privateKey.reveal',
  run: async ({ input: { walletId, addressId, password, requestId }, actor, custody }) => {
    const target = `address:${addressId}`;
    const entry = { walletId, addressId, requestId };
    const user = await findUserById(await currentDb(), actor.id);
    if (!user || user.disabledAt || !(await verifyPassword(password, user.passwordHash))) {
      await audit(actor, 'privateKey.reveal', 'failed', {
        target,
        input: { ...entry, reason: 'wrong password' },
      });
      const error = 'That password is not right.';
      return refuse(error, { fieldErrors: { password: error } });
    }
    const engine = await getApprovalEngine();
    const taken = await engine.takePrivateKeyReveal(actor, requestId, { walletId, addressId });
    if (!taken.ok) {
      await audit(actor, 'privateKey.reveal', 'failed', { target, input: { ...entry, reason: taken.error } });
      return refuse(taken.error, { status: taken.status });
    }
    const client = await custody(walletId);
    let answer: Awaited<ReturnType<typeof client.addresses.get>>['data'];
    try {
      answer = (await client.addresses.get({ walletId, addressId, showPrivateKey: true })).data;
    } catch (error) {
      await engine.giveBackPrivateKeyReveal(requestId);
      await audit(actor, 'privateKey.reveal', 'failed', {
        target,
        input: { ...entry, reason: 'upstream error' },
      });
      throw error;
    }
    const privateKey = (answer as { privateKey?: unknown }).privateKey;
    if (typeof privateKey !== 'string' || privateKey === '') {
      await engine.giveBackPrivateKeyReveal(requestId);
      await audit(actor, 'privateKey.reveal', 'failed', {
        target,
        input: { ...entry, reason: 'no key returned' },
      });
      return refuse(NO_KEY_RETURNED);
    }
    await audit(actor, 'privateKey.reveal', 'success', { target, input: entry });
    return ok<RevealedKey>({ address: answer.address, privateKey });
  },
});

export interface SimulatedDeposit {
  transactionId: string;
  status: string;
  amount: string;
  symbol: string;
}

interface DepositAnswer {
  message?: string;
  data?: { id?: string; status?: string; amount?: string; asset?: { symbol?: string } | null };
}

/** Sandbox mode only: asks the embedded service to simulate a deposit to this address (POST /control/deposits). */
export const simulateDepositAction = defineAction({
  permission: 'sandbox.deposit',
  resource: 'sandbox',
  input: simulateDepositSchema,
  context: 'simulate deposit',
  audit: {
    action: 'sandbox.deposit',
    input: ({ walletId, addressId, assetId, amount }) => ({ walletId, addressId, assetId, amount }),
    target: ({ addressId }, data?: SimulatedDeposit) =>
      data ? `transaction:${data.transactionId}` : `address:${addressId}`,
  },
  run: async ({ input: { walletId, addressId, assetId, amount } }) => {
    const services = await currentServices();
    if (!services.sandbox) return refuse('Simulated deposits exist only in sandbox mode.');
    const connection = await findWalletConnection(walletId);
    if (!connection) return refuse(WALLET_NOT_CONNECTED, { status: 404 });
    const response = await services.sandbox.handle(
      new Request('http://sandbox.internal/sandbox/control/deposits', {
        method: 'POST',
        headers: {
          'x-api-key': openApiKey(services, connection.id, connection.apiKeySealed),
          'content-type': 'application/json',
        },
        body: JSON.stringify({ addressId, assetId, amount }),
      }),
    );
    const answer = (await response.json().catch(() => null)) as DepositAnswer | null;
    if (response.status !== 200 || !answer?.data?.id)
      return refuse(answer?.message ?? `The sandbox answered ${response.status}.`);
    return ok<SimulatedDeposit>({
      transactionId: answer.data.id,
      status: answer.data.status ?? 'PENDING',
      amount: answer.data.amount ?? amount,
      symbol: answer.data.asset?.symbol ?? '',
    });
  },
});
