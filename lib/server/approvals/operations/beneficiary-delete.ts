import 'server-only';
// Deleting a beneficiary (#7) as an operation kind: the service cannot bring one back, and its beneficiaries are
// payout and settlement destinations, so one admin asks and another approves. The review names who is deleted,
// as the service lists them; the deletion is audited with what was deleted (the service stops listing it).
import { z } from 'zod';
import type { Beneficiary } from '@/lib/custody/schemas';
import { looksLikeMissingEndpoint } from '../lookup';
import type { ReviewContext } from '../types';
import { checksummed, mainnetWarnings, reviewWallet } from './review-parts';
import { CUSTODY_SETTINGS_POLICY, custodyIdSchema, settingsFinality } from './settlement';
import { defineOperation, LocalRefusal } from './types';

/** Pages of 100 read to find the beneficiary (the service's list extension). */
const PAGES_READ = 10;

/** The beneficiary as the service lists it; `unlisted` when the service does not list beneficiaries. */
async function listedBeneficiary(ctx: ReviewContext, id: string): Promise<Beneficiary | 'unlisted'> {
  try {
    for (let page = 1; page <= PAGES_READ; page++) {
      const answer = await ctx.client.beneficiaries.list({ walletId: ctx.walletId, page, limit: 100 });
      const found = answer.data.find((b) => b.id === id);
      if (found) return found;
      if (answer.data.length < 100 || page >= (answer.meta?.totalPages ?? page)) break;
    }
  } catch (error) {
    if (looksLikeMissingEndpoint(error)) return 'unlisted';
    throw error;
  }
  throw new LocalRefusal('That beneficiary is not listed by the custody service: it may be deleted already.');
}

export const beneficiaryDeleteOperation = defineOperation({
  key: 'beneficiaryDelete',
  permissions: { request: 'beneficiaryDelete.request', approve: 'beneficiaryDelete.approve' },
  defaultPolicy: CUSTODY_SETTINGS_POLICY,
  ...settingsFinality,
  payloadSchema: z.strictObject({ beneficiaryId: custodyIdSchema }),
  addressIdOf: () => null,
  async buildReview(p, ctx) {
    const [wallet, listed] = await Promise.all([
      ctx.client.wallets.get({ walletId: ctx.walletId }).then((r) => r.data),
      listedBeneficiary(ctx, p.beneficiaryId),
    ]);
    const b = listed === 'unlisted' ? null : listed;
    if (b?.deletedAt) throw new LocalRefusal('That beneficiary is deleted already.');
    const warnings = [...mainnetWarnings(wallet.network)];
    if (!b)
      warnings.push(
        'This custody service does not list beneficiaries: the console cannot show who this is. Check the id at the service before approving.',
      );
    if (b?.isSettlement) warnings.push('It is a settlement destination: settlements to it stop.');
    if (b?.isDefault) warnings.push('It is the wallet’s default beneficiary.');
    warnings.push('A deleted beneficiary cannot be brought back from the console.');
    return {
      review: {
        kind: 'beneficiaryDelete',
        wallet: reviewWallet(wallet),
        beneficiary: {
          id: p.beneficiaryId,
          name: b?.name ?? null,
          address: b ? checksummed(b.address) : null,
          isDefault: b?.isDefault === true,
          isSettlement: b?.isSettlement === true,
          isWhitelisted: b?.isWhitelisted === true,
        },
        warnings,
        builtAt: new Date().toISOString(),
      },
      summary: `Delete beneficiary ${b ? `“${b.name}”` : p.beneficiaryId} of ${wallet.name}`,
      amountUsd: null,
    };
  },
  async submit(p, ctx) {
    const { data: b } = await ctx.client.beneficiaries.delete({
      walletId: ctx.walletId,
      id: p.beneficiaryId,
    });
    const deletedAt = b.deletedAt ?? new Date().toISOString();
    return {
      items: [],
      final: 'SUCCESS',
      result: {
        kind: 'beneficiaryDelete',
        message: `Beneficiary “${b.name}” was deleted at the custody service.`,
      },
      // The service stops listing it: the beneficiaries page lists deleted ones from this entry.
      change: {
        action: 'beneficiary.delete',
        target: p.beneficiaryId,
        input: { name: b.name, address: b.address, deletedAt },
      },
    };
  },
});
