import 'server-only';
// Sandbox controls, for tests and demos: a simulated deposit, and the wallet's fault state.
import { randomBytes } from 'node:crypto';
import { formatUnits, getAddress } from 'viem';
import { schemas } from '@/lib/custody/schemas';
import { type AddressConfigurations, invalid } from '../context';
import { faultsBody, faultsState } from '../faults';
import { parseAmount } from '../money';
import * as req from '../requests';
import { endpoint } from './endpoint';
import { AML_CLEAR, addressOf, newReference, walletAssetOf } from './shared';

export const controlEndpoints = [
  endpoint({
    method: 'POST',
    pattern: '/control/deposits',
    summary: 'Sandbox control: simulate a deposit to a child address',
    body: req.depositBody,
    response: { data: schemas.transaction },
    async handle({ core }, { wallet, body }) {
      const child = addressOf(core, wallet, body.addressId);
      const asset = walletAssetOf(core, wallet, body.assetId);
      const amount = parseAmount(body.amount, asset.decimals, asset.symbol);
      if (!amount.ok) throw invalid(amount.message);
      const config = child.configurations as AddressConfigurations;
      // Only an address whose key the service holds can be swept.
      const sweep = config.disableAutoSweep || !child.derivationPath ? 'skip' : 'pending';
      const txBody = core.newBody(wallet, asset, amount.value);
      txBody.amlScreening = AML_CLEAR;
      txBody.assetSwept = false;
      const row = await core.insertTransaction(core.db, {
        walletId: wallet.id,
        addressId: child.id,
        reference: newReference(),
        type: 'DEPOSIT',
        status: 'PENDING',
        assetId: asset.id,
        amount: formatUnits(amount.value, asset.decimals),
        senderAddress: getAddress(`0x${randomBytes(20).toString('hex')}`),
        recipientAddress: getAddress(child.address),
        confirmations: 0,
        body: txBody,
        plan: {
          kind: 'deposit',
          to: child.address,
          assetId: asset.id,
          amount: amount.value.toString(),
          sweep,
        },
      });
      return { data: core.serialize(row), message: 'Deposit created successfully' };
    },
  }),
  endpoint({
    method: 'GET',
    pattern: '/control/faults',
    summary: "Sandbox control: the wallet's fault state",
    response: { data: faultsState },
    async handle({ faults }, { wallet }) {
      return { data: faults.get(wallet.id), message: 'Faults fetched successfully' };
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/control/faults',
    summary:
      "Sandbox control: delay or lose the answer of the wallet's next money-moving or signing call, or switch the extension endpoints off",
    body: faultsBody,
    response: { data: faultsState },
    async handle({ faults }, { wallet, body }) {
      return { data: faults.set(wallet.id, body), message: 'Faults updated successfully' };
    },
  }),
];
