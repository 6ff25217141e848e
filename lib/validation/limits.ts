// The spending-limit form: one schema for the policy page's form and its action, and the stored rule's shape.
import { z } from 'zod';
import { LIMIT_SCOPES, LIMIT_WINDOWS, type SpendingRuleValues } from '@/lib/approvals/limits';

const WINDOW_HOURS = LIMIT_WINDOWS.map((w) => String(w.hours)) as [string, ...string[]];
const MAX_LIMIT_DIGITS = 18;

export const spendingRuleFormSchema = z
  .object({
    /** Empty: every wallet. */
    walletId: z
      .string()
      .trim()
      .max(100)
      .regex(/^[A-Za-z0-9-]*$/, { message: 'Choose a wallet.' }),
    scope: z.enum(LIMIT_SCOPES, { message: 'Choose whose spending adds up.' }),
    windowHours: z.enum(WINDOW_HOURS, { message: 'Choose a window.' }),
    unit: z.enum(['usd', 'asset'], { message: 'Choose USD or an asset.' }),
    assetSymbol: z
      .string()
      .trim()
      .max(20)
      .regex(/^[A-Za-z0-9.]*$/, { message: 'Enter an asset symbol such as USDC.' }),
    limit: z
      .string()
      .trim()
      .regex(/^\d+(\.\d{1,18})?$/, { message: 'Enter an amount such as 50000.' })
      .refine((v) => v.split('.')[0]!.length <= MAX_LIMIT_DIGITS, { message: 'That amount is too large.' })
      .refine((v) => Number(v) > 0, { message: 'The limit must be above zero.' }),
    onBreach: z.enum(['approvals', 'refuse'], { message: 'Choose what happens above the limit.' }),
    extraApprovals: z
      .string()
      .trim()
      .regex(/^\d+$/, { message: 'Enter a whole number.' })
      .refine((v) => Number(v) >= 1 && Number(v) <= 5, { message: 'Between 1 and 5 more approvals.' }),
  })
  .superRefine((v, ctx) => {
    if (v.unit === 'asset' && !v.assetSymbol)
      ctx.addIssue({ code: 'custom', path: ['assetSymbol'], message: 'Enter the asset the limit counts.' });
    if (v.unit === 'usd' && v.limit.includes('.') && v.limit.split('.')[1]!.length > 2)
      ctx.addIssue({ code: 'custom', path: ['limit'], message: 'A USD limit has at most 2 decimals.' });
  });

export type SpendingRuleFormValues = z.input<typeof spendingRuleFormSchema>;

/** The rule the form describes, as stored. */
export function ruleValuesOf(input: z.output<typeof spendingRuleFormSchema>): SpendingRuleValues {
  return {
    walletId: input.walletId === '' ? null : input.walletId,
    scope: input.scope,
    windowHours: Number(input.windowHours),
    unit: input.unit,
    assetSymbol: input.assetSymbol === '' ? null : input.assetSymbol.toUpperCase(),
    limit: input.limit.replace(/^0+(?=\d)/, ''),
    onBreach: input.onBreach,
    extraApprovals: input.onBreach === 'approvals' ? Number(input.extraApprovals) : 0,
  };
}

/** A rule as a stored request payload carries it (checked again by the configuration kind). */
export const spendingRuleValuesSchema: z.ZodType<SpendingRuleValues> = z.strictObject({
  walletId: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9-]+$/)
    .nullable(),
  scope: z.enum(LIMIT_SCOPES),
  windowHours: z.int().refine((h) => LIMIT_WINDOWS.some((w) => w.hours === h)),
  unit: z.enum(['usd', 'asset']),
  assetSymbol: z
    .string()
    .regex(/^[A-Z0-9.]{1,20}$/)
    .nullable(),
  limit: z.string().regex(/^\d{1,18}(\.\d{1,18})?$/),
  onBreach: z.enum(['approvals', 'refuse']),
  extraApprovals: z.int().min(0).max(5),
});

export const spendingRuleRemovalSchema = z.object({ ruleId: z.uuid({ message: 'No such limit.' }) });
