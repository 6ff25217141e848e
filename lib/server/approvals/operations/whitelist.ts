import 'server-only';
// The wallet's whitelist as operation kinds: whitelisting an external address (#6) and removing one (the
// service's unwhitelist extension). A whitelisted address reads as a known counterparty in every withdrawal
// review, so adding one takes a second admin; removing one does too, so that nobody edits the list alone.
import { z } from 'zod';
import { WHITELISTED_LABEL } from '@/lib/approvals/custody-settings';
import { isMissingEndpoint } from '@/lib/custody';
import { shortAddress } from '@/lib/format';
import { addressBookPolicyOf } from '../../address-book';
import { bookNamesOf, mainnetWarnings, namedAddress, reviewWallet } from './review-parts';
import { CUSTODY_SETTINGS_POLICY, custodyIdSchema, evmAddressSchema, settingsFinality } from './settlement';
import { defineOperation, LocalRefusal, SubmitRefusal } from './types';

/** What a sealed private key is bound to: the wallet and the address it belongs to. */
export function privateKeyBinding(walletId: string, address: string): string {
  return `whitelist-private-key:${walletId}:${address.toLowerCase()}`;
}

const whitelistAddSchema = z.strictObject({
  address: evmAddressSchema,
  name: z.string().min(1).max(100).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  disableAutoSweep: z.boolean(),
  enableGaslessWithdraw: z.boolean(),
  showPrivateKey: z.boolean(),
  /** The address's private key, sealed by the action (`privateKeyBinding`); never stored in clear. */
  privateKeySealed: z.string().min(1).max(2000).optional(),
});

export const whitelistAddOperation = defineOperation({
  key: 'whitelistAdd',
  permissions: { request: 'whitelistAdd.request', approve: 'whitelistAdd.approve' },
  defaultPolicy: CUSTODY_SETTINGS_POLICY,
  ...settingsFinality,
  payloadSchema: whitelistAddSchema,
  addressIdOf: () => null,
  async buildReview(p, ctx) {
    const { client, walletId } = ctx;
    const wallet = (await client.wallets.get({ walletId })).data;
    const [names, policy] = await Promise.all([bookNamesOf(ctx, [p.address]), addressBookPolicyOf(ctx.db)]);
    const address = namedAddress(p.address, names);
    const warnings = [
      ...mainnetWarnings(wallet.network),
      // Whitelisting must not open a way out: under the destination policy only the console's book counts.
      policy.destinationPolicy
        ? 'Whitelisting alone does not let money go to this address: money goes only to address book entries past their cooling-off (the destination policy), and an admin adds it to the book for that.'
        : `Withdrawals to a whitelisted address are labelled “${WHITELISTED_LABEL}” in every review: approvers see it as a known counterparty, not as outside the address book.`,
    ];
    if (address.bookSource === 'whitelisted')
      warnings.push(`Already whitelisted at the service as “${address.bookName}”.`);
    return {
      review: {
        kind: 'whitelistAdd',
        wallet: reviewWallet(wallet),
        address,
        name: p.name ?? null,
        disableAutoSweep: p.disableAutoSweep,
        enableGaslessWithdraw: p.enableGaslessWithdraw,
        showPrivateKey: p.showPrivateKey,
        privateKeyGiven: Boolean(p.privateKeySealed),
        metadata: p.metadata ? JSON.stringify(p.metadata) : null,
        warnings,
        builtAt: new Date().toISOString(),
      },
      summary: `Whitelist ${p.name ? `“${p.name}” ` : ''}${shortAddress(address.address)} on ${wallet.name}`,
      amountUsd: null,
    };
  },
  async submit(p, ctx) {
    let privateKey: string | undefined;
    if (p.privateKeySealed) {
      try {
        privateKey = ctx.openSealed(p.privateKeySealed, privateKeyBinding(ctx.walletId, p.address));
      } catch {
        throw new SubmitRefusal(
          'The private key given with this request cannot be opened here; ask for the whitelisting again.',
        );
      }
    }
    const { data } = await ctx.client.addresses.whitelist(
      { walletId: ctx.walletId },
      {
        address: p.address,
        name: p.name,
        metadata: p.metadata,
        disableAutoSweep: p.disableAutoSweep,
        enableGaslessWithdraw: p.enableGaslessWithdraw,
        showPrivateKey: p.showPrivateKey,
        privateKey,
      },
    );
    const aml = data.configurations?.aml;
    return {
      items: [],
      final: 'SUCCESS',
      result: {
        kind: 'whitelistAdd',
        message: `${data.address}${data.name ? ` (${data.name})` : ''} is whitelisted as ${data.type}. AML screening: ${
          aml ? `${aml.status}, ${aml.message} (${aml.provider})` : 'not reported'
        }.`,
      },
      change: {
        action: 'whitelist.add',
        target: data.id,
        input: {
          address: p.address,
          name: p.name ?? null,
          disableAutoSweep: p.disableAutoSweep,
          enableGaslessWithdraw: p.enableGaslessWithdraw,
          showPrivateKey: p.showPrivateKey,
          privateKeyGiven: Boolean(privateKey),
        },
      },
    };
  },
});

export const whitelistRemoveOperation = defineOperation({
  key: 'whitelistRemove',
  permissions: { request: 'whitelistRemove.request', approve: 'whitelistRemove.approve' },
  defaultPolicy: CUSTODY_SETTINGS_POLICY,
  ...settingsFinality,
  payloadSchema: z.strictObject({ addressId: custodyIdSchema }),
  addressIdOf: (p) => p.addressId,
  async buildReview(p, ctx) {
    const { client, walletId } = ctx;
    const [wallet, address] = await Promise.all([
      client.wallets.get({ walletId }).then((r) => r.data),
      client.addresses.get({ walletId, addressId: p.addressId }).then((r) => r.data),
    ]);
    if (address.type !== 'EXTERNAL')
      throw new LocalRefusal('Only whitelisted (external) addresses can be removed from the whitelist.');
    if (address.isActive === false) throw new LocalRefusal('This address is no longer whitelisted.');
    const names = await bookNamesOf(ctx, [address.address]);
    const named = namedAddress(address.address, names);
    return {
      review: {
        kind: 'whitelistRemove',
        wallet: reviewWallet(wallet),
        address: {
          addressId: address.id,
          address: named.address,
          name: address.name ?? null,
          type: address.type,
          bookName: named.bookSource === 'console' ? named.bookName : null,
        },
        warnings: [
          `Withdrawals to this address will no longer be labelled “${WHITELISTED_LABEL}”: reviews flag them as outside the address book unless the address book names it.`,
        ],
        builtAt: new Date().toISOString(),
      },
      summary: `Remove ${address.name ? `“${address.name}”` : shortAddress(named.address)} from the whitelist of ${wallet.name}`,
      amountUsd: null,
    };
  },
  async submit(p, ctx) {
    const { data } = await ctx.client.addresses
      .removeWhitelisted({ walletId: ctx.walletId, addressId: p.addressId })
      .catch((error: unknown) => {
        // The unwhitelist extension is missing: a 404 for the path itself, not the address's own "not found".
        if (isMissingEndpoint(error))
          throw new SubmitRefusal(
            'This custody service does not offer removing whitelisted addresses; remove it in the service itself.',
          );
        throw error;
      });
    return {
      items: [],
      final: 'SUCCESS',
      result: {
        kind: 'whitelistRemove',
        message: `${data.address}${data.name ? ` (${data.name})` : ''} is no longer whitelisted.`,
      },
      change: {
        action: 'whitelist.remove',
        target: p.addressId,
        input: { address: data.address, name: data.name ?? null },
      },
    };
  },
});
