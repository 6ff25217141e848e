import 'server-only';
// Adding or removing a spending limit as a configuration change: one admin requests, a second approves, and
// the console changes its rules when the last approval lands. Requests created from then on are checked
// against the new rules; so is every request at its final approval.
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { describeRule } from '@/lib/approvals/limits';
import { DEFAULT_EXPIRY_SECONDS } from '@/lib/approvals/policy';
import { spendingLimits } from '@/lib/db/schema';
import { spendingRuleValuesSchema } from '@/lib/validation/limits';
import { ruleOf, walletNames } from '../limits';
import { defineLocalOperation, LocalRefusal } from './types';

const payloadSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('add'), rule: spendingRuleValuesSchema }),
  z.strictObject({ action: z.literal('remove'), ruleId: z.uuid() }),
]);

export const limitEditOperation = defineLocalOperation({
  key: 'limitEdit',
  permissions: { request: 'limitEdit.request', approve: 'limitEdit.approve' },
  // Like every configuration change: one other admin, a day at most, until an admin edits its policy.
  defaultPolicy: { approvals: 1, thresholdUsd: null, expirySeconds: DEFAULT_EXPIRY_SECONDS },
  payloadSchema,
  async buildReview(payload, ctx) {
    const nameOf = await walletNames(ctx.db);
    let values = payload.action === 'add' ? payload.rule : null;
    if (payload.action === 'remove') {
      const [row] = await ctx.db.select().from(spendingLimits).where(eq(spendingLimits.id, payload.ruleId));
      if (!row) throw new LocalRefusal('No such spending limit: it may have been removed already.');
      values = ruleOf(row);
    }
    if (!values) throw new LocalRefusal('No such spending limit.');
    const rule = describeRule(values, nameOf(values.walletId));
    const warnings =
      payload.action === 'remove'
        ? ['This loosens the rules: requests are no longer checked against this limit.']
        : values.onBreach === 'approvals'
          ? []
          : ['Requests that would break this limit are refused, whatever the approvers say.'];
    return {
      review: {
        kind: 'limitEdit',
        action: payload.action,
        rule,
        values,
        warnings,
        builtAt: new Date().toISOString(),
      },
      summary: `${payload.action === 'add' ? 'Add' : 'Remove'} spending limit: ${rule}`,
      amountUsd: null,
    };
  },
  async execute(payload, ctx) {
    if (payload.action === 'add') {
      const { rule } = payload;
      const [row] = await ctx.db
        .insert(spendingLimits)
        .values({
          walletId: rule.walletId,
          scope: rule.scope,
          windowHours: rule.windowHours,
          unit: rule.unit,
          assetSymbol: rule.assetSymbol,
          limitAmount: rule.limit,
          onBreach: rule.onBreach,
          extraApprovals: rule.extraApprovals,
          createdBy: ctx.requester.email,
          createdAt: ctx.now,
        })
        .returning({ id: spendingLimits.id });
      return {
        result: {
          kind: 'limitEdit',
          message: 'The spending limit applies to requests from now on, and at every final approval.',
        },
        audit: { action: 'limit.edit', target: row?.id ?? 'spending-limit', input: { added: rule } },
      };
    }
    const removed = await ctx.db
      .delete(spendingLimits)
      .where(eq(spendingLimits.id, payload.ruleId))
      .returning();
    const [row] = removed;
    if (!row) throw new LocalRefusal('The spending limit was removed already.');
    return {
      result: { kind: 'limitEdit', message: 'The spending limit no longer applies.' },
      audit: { action: 'limit.edit', target: row.id, input: { removed: ruleOf(row) } },
    };
  },
});
