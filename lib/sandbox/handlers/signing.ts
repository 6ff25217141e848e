import 'server-only';
// #21 EIP-712 typed-data signing with a child address's key.
import { getAddress, type Hex, isAddress, keccak256, parseSignature } from 'viem';
import { schemas, typedDataInput } from '@/lib/custody/schemas';
import { invalid } from '../context';
import * as req from '../requests';
import { endpoint } from './endpoint';
import { addressOf, newReference, shortMessage } from './shared';

function inferPrimaryType(types: Record<string, Array<{ name: string; type: string }>>): string | undefined {
  const referenced = new Set<string>();
  for (const fields of Object.values(types))
    for (const f of fields) referenced.add(f.type.replace(/\[\d*\]$/g, ''));
  return Object.keys(types).find((name) => !referenced.has(name));
}

export const signingEndpoints = [
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/signing/typed-data',
    summary: '#21 Sign EIP-712 typed data',
    body: req.typedDataBody,
    documentedBody: typedDataInput,
    response: { data: schemas.typedDataSignedTransaction },
    movesMoney: true,
    async handle({ core }, { wallet, params, body }) {
      const child = addressOf(core, wallet, params.addressId);
      const holder = core.childHolder(wallet, child);
      const account = core.account(holder);
      const types = { ...body.types };
      delete types.EIP712Domain;
      const primaryType = body.primaryType ?? inferPrimaryType(types);
      if (!primaryType || !types[primaryType]) throw invalid('Cannot tell the primary type from types');
      let signature: Hex;
      try {
        signature = await account.signTypedData({
          // biome-ignore lint/suspicious/noExplicitAny: caller-defined EIP-712 types; viem validates them at run time.
          domain: body.domain as any,
          types,
          primaryType,
          message: body.message,
        });
      } catch (error) {
        throw invalid(`Invalid typed data: ${shortMessage(error)}`);
      }
      const parts = parseSignature(signature);
      const v = parts.v !== undefined ? Number(parts.v) : 27 + parts.yParity;
      const txBody = core.newBody(wallet, undefined, undefined);
      Object.assign(txBody, {
        confirmed: true,
        createdChannel: 'api',
        signedTransaction: { r: parts.r, s: parts.s, signature, v },
        reason: JSON.stringify({ primaryType, domain: body.domain }),
      });
      const verifying =
        typeof body.domain.verifyingContract === 'string' ? body.domain.verifyingContract : '';
      const row = await core.insertTransaction(core.db, {
        walletId: wallet.id,
        addressId: child.id,
        reference: newReference(),
        hash: keccak256(signature),
        type: 'SIGNED',
        status: 'SUCCESS',
        assetId: null,
        amount: null,
        senderAddress: holder.address,
        recipientAddress: isAddress(verifying) ? getAddress(verifying) : holder.address,
        confirmations: 0,
        body: txBody,
        plan: null,
      });
      await core.queueWebhook(core.db, row, 'signed.success');
      return { data: core.serialize(row), message: 'Typed data signed successfully' };
    },
  }),
];
