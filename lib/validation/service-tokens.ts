// Service tokens as the admin form and its actions take them: one schema for both.
import { z } from 'zod';
import { SERVICE_TOKEN_SCOPES } from '@/lib/approvals/service-tokens';
import { parseNetworkList } from '@/lib/config/networks';
import { plainText } from './text';

const MAX_TOKEN_DAYS = 730;

/** Networks as typed: one per line or separated by commas. */
export function splitNetworks(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((n) => n.trim())
    .filter(Boolean);
}

export const serviceTokenFormSchema = z.object({
  name: plainText()
    .trim()
    .min(1, 'Name the system that will use the token.')
    .max(100, 'At most 100 characters.'),
  scopes: z
    .array(z.enum(SERVICE_TOKEN_SCOPES))
    .min(1, 'Choose at least one scope.')
    .refine((s) => new Set(s).size === s.length, 'Choose each scope once.'),
  walletIds: z
    .array(plainText().min(1).max(100))
    .min(1, 'Choose at least one wallet.')
    .max(50, 'At most 50 wallets.'),
  dailyCapUsd: plainText()
    .trim()
    .regex(/^\d{1,12}(\.\d{1,2})?$/, 'Enter a USD amount such as 25000 or 2500.50.'),
  minApprovals: z.coerce
    .number({ message: 'Enter a number of approvals.' })
    .int('Enter a whole number.')
    .min(1, 'At least one person approves.')
    .max(5, 'At most 5.'),
  allowedCidrs: plainText({ multiline: true })
    .max(2000, 'At most 2,000 characters.')
    .refine((text) => parseNetworkList(splitNetworks(text).join(',')).ok, {
      message: 'Enter networks such as 203.0.113.0/24 or 2001:db8::/32, one per line.',
    }),
  rateLimitPerMinute: z.coerce
    .number({ message: 'Enter calls per minute.' })
    .int('Enter a whole number.')
    .min(1, 'At least 1 call per minute.')
    .max(6000, 'At most 6,000 calls per minute.'),
  webhookUrl: plainText()
    .trim()
    .max(500, 'At most 500 characters.')
    .refine(
      (u) => u === '' || /^https?:\/\/[^\s]+$/i.test(u),
      'Enter a full http(s):// address, or leave it empty.',
    ),
  expiresInDays: z.coerce
    .number({ message: 'Enter a number of days.' })
    .int('Enter a whole number of days.')
    .min(1, 'At least 1 day.')
    .max(MAX_TOKEN_DAYS, `At most ${MAX_TOKEN_DAYS} days.`),
});
export type ServiceTokenFormInput = z.input<typeof serviceTokenFormSchema>;
export type ServiceTokenFormValues = z.output<typeof serviceTokenFormSchema>;

export const serviceTokenIdSchema = z.object({ tokenId: z.uuid('Choose a token.') });
