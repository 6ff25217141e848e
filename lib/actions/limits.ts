'use server';
import { requestConfigurationChange } from '@/lib/actions/configuration-request';
import { defineAction } from '@/lib/actions/define-action';
import { ruleValuesOf, spendingRuleFormSchema, spendingRuleRemovalSchema } from '@/lib/validation/limits';

// Spending limits change through a request a second admin approves; the approval engine audits both steps.

/** Asks for a new spending limit. */
export const requestSpendingLimitAction = defineAction({
  permission: 'limitEdit.request',
  resource: 'spending-limits',
  input: spendingRuleFormSchema,
  context: 'request spending limit',
  stepUp: (input) => ({ change: 'limitEdit', action: 'add', rule: ruleValuesOf(input) }),
  run: async ({ input, actor }) =>
    requestConfigurationChange(actor, 'limitEdit', { action: 'add', rule: ruleValuesOf(input) }),
});

/** Asks for a spending limit to be removed. */
export const requestSpendingLimitRemovalAction = defineAction({
  permission: 'limitEdit.request',
  resource: 'spending-limits',
  input: spendingRuleRemovalSchema,
  context: 'request spending limit removal',
  stepUp: ({ ruleId }) => ({ change: 'limitEdit', action: 'remove', ruleId }),
  run: async ({ input, actor }) =>
    requestConfigurationChange(actor, 'limitEdit', { action: 'remove', ruleId: input.ruleId }),
});
