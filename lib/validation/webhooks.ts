// URL state of the webhook log (page, limit, status, event): one parser for the server page, the route
// handler and the client table. Bad values fall back to defaults instead of failing the page.
import { z } from 'zod';
import type { WebhookLog } from '@/lib/custody/schemas';

export const WEBHOOK_LOG_PAGE_SIZES = [10, 25, 50, 100] as const;
export const WEBHOOK_LOG_DEFAULT_LIMIT = 25;

export const webhookLogQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  limit: z.coerce
    .number()
    .int()
    .refine((n) => (WEBHOOK_LOG_PAGE_SIZES as readonly number[]).includes(n))
    .catch(WEBHOOK_LOG_DEFAULT_LIMIT),
  status: z.enum(['success', 'failed']).optional().catch(undefined),
  event: z
    .string()
    .regex(/^[a-z0-9.-]{1,80}$/i)
    .optional()
    .catch(undefined),
});

export type WebhookLogQuery = z.output<typeof webhookLogQuerySchema>;

export function parseWebhookLogQuery(
  params: Record<string, string | string[] | undefined> | URLSearchParams,
): WebhookLogQuery {
  const raw: Record<string, string> = {};
  const entries = params instanceof URLSearchParams ? params.entries() : Object.entries(params);
  for (const [k, v] of entries) {
    const value = Array.isArray(v) ? v[0] : v;
    if (typeof value === 'string' && value !== '') raw[k] = value;
  }
  return webhookLogQuerySchema.parse(raw);
}

/** The query string for a state: defaults are left out, so URLs stay short and shareable. */
export function webhookLogSearch(query: WebhookLogQuery): string {
  const out = new URLSearchParams();
  if (query.page !== 1) out.set('page', String(query.page));
  if (query.limit !== WEBHOOK_LOG_DEFAULT_LIMIT) out.set('limit', String(query.limit));
  if (query.status) out.set('status', query.status);
  if (query.event) out.set('event', query.event);
  return out.toString();
}

/** What the webhook-log route handler answers (and the server page hands to the table). */
export interface WebhookLogPage {
  data: WebhookLog[];
  meta: { currentPage: number; itemsPerPage: number; totalItems: number; totalPages: number };
  /** True when filtering stopped at the scan cap, so older matching deliveries may exist. */
  truncated: boolean;
  /** Event names seen in what was read, for the event filter. */
  events: string[];
}
