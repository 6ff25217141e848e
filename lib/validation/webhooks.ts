// URL state of the webhook log (page, limit, status, event), parsed once with nuqs: the server page and the
// route handler read it with the loader, the client table writes it with the same parsers. Bad values fall
// back to defaults instead of failing the page. Also the shapes the log's reads answer with: deliveries
// grouped per transaction and event.
import {
  createLoader,
  createParser,
  createSerializer,
  parseAsInteger,
  parseAsNumberLiteral,
  parseAsStringLiteral,
} from 'nuqs/server';
import type { WebhookLog } from '@/lib/custody/schemas';

export const WEBHOOK_LOG_PAGE_SIZES = [10, 25, 50, 100] as const;
const WEBHOOK_LOG_DEFAULT_LIMIT = 25;
const MAX_PAGE = 100_000;

/**
 * The status filter is about a delivery as a whole (every entry the service logged for one transaction and
 * event): `failed` is what still needs someone (its latest entry failed), `success` is delivered in the
 * end, `resolved` is delivered after an earlier failure.
 */
export const WEBHOOK_LOG_STATUS_FILTERS = ['failed', 'success', 'resolved'] as const;
export type WebhookLogStatusFilter = (typeof WEBHOOK_LOG_STATUS_FILTERS)[number];

/** Event names as the service writes them (`deposit.swept.success`); anything else is no filter. */
const parseAsEventName = createParser({
  parse: (value: string) => (/^[a-z0-9.-]{1,80}$/i.test(value) ? value : null),
  serialize: (value: string) => value,
});

/** A page number within range; anything else is the first page. */
const parseAsPageNumber = createParser({
  parse: (value: string) => {
    const page = parseAsInteger.parse(value);
    return page !== null && page >= 1 && page <= MAX_PAGE ? page : null;
  },
  serialize: (value: number) => String(value),
});

export const webhookLogSearchParams = {
  page: parseAsPageNumber.withDefault(1),
  limit: parseAsNumberLiteral(WEBHOOK_LOG_PAGE_SIZES).withDefault(WEBHOOK_LOG_DEFAULT_LIMIT),
  status: parseAsStringLiteral(WEBHOOK_LOG_STATUS_FILTERS),
  event: parseAsEventName,
};

const loadWebhookLogSearchParams = createLoader(webhookLogSearchParams);
const serializeWebhookLogSearch = createSerializer(webhookLogSearchParams);

/** The log's URL state with absent filters left out (what the loaders take). */
export type WebhookLogQuery = {
  page: number;
  limit: number;
  status?: WebhookLogStatusFilter;
  event?: string;
};

/** Reads the query from a URL, its search params or a page's `searchParams`. */
export function parseWebhookLogQuery(
  params: Record<string, string | string[] | undefined> | URLSearchParams | URL | Request | string,
): WebhookLogQuery {
  const { page, limit, status, event } = loadWebhookLogSearchParams(params);
  return { page, limit, ...(status ? { status } : {}), ...(event ? { event } : {}) };
}

/** The query string for a state: defaults are left out, so URLs stay short and shareable. */
export function webhookLogSearch(query: WebhookLogQuery): string {
  return serializeWebhookLogSearch({
    page: query.page === 1 ? null : query.page,
    limit: query.limit === WEBHOOK_LOG_DEFAULT_LIMIT ? null : (query.limit as 10 | 25 | 50 | 100),
    status: query.status ?? null,
    event: query.event ?? null,
  }).replace(/^\?/, '');
}

/**
 * Where a delivery stands, from its latest log entry: `delivered` (never failed), `resolved` (an earlier
 * entry failed, a later one was delivered), `failed` (the latest entry failed: someone has to look), or
 * `pending` (the latest entry has a status the console does not know, e.g. still being sent).
 */
export type DeliveryState = 'delivered' | 'resolved' | 'failed' | 'pending';

/** One try of a delivery, as far as the service's log tells it. */
export interface DeliveryAttempt {
  /** 1-based over the whole delivery, oldest first. */
  number: number;
  /** Which log entry (1-based, oldest first) made this try, and which of its tries it was. */
  entry: number;
  tryOfEntry: number;
  triesOfEntry: number;
  outcome: 'delivered' | 'failed' | 'unknown';
  /** An entry's first try is at its createdAt and its last at its updatedAt; tries between have no time. */
  at: string | null;
  /** The receiver's answer: the log keeps only each entry's last one. */
  response: WebhookLog['response'] | null;
}

/** Every log entry of one transaction and event (a resend adds an entry), read as one delivery. */
export interface WebhookDeliveryGroup {
  /** `transactionId` and `event`, stable across refetches (row ids, selection). */
  id: string;
  transactionId: string;
  event: string;
  state: DeliveryState;
  /** The latest entry failed: the Failed filter lists exactly these. */
  needsAttention: boolean;
  /** The log entries, oldest first. */
  entries: WebhookLog[];
  /** Every try of every entry, oldest first. */
  attempts: DeliveryAttempt[];
  /** The first entry's createdAt. */
  firstSentAt: string;
  /** The last entry's updatedAt. */
  lastAttemptAt: string;
  /** The newest entry: its URL, answer and transaction payload describe the delivery now. */
  latest: WebhookLog;
}

/** What the webhook-log route handler answers (and the server page hands to the table). */
/** Tries of the endpoint within a window: every try but an entry's last failed; the last has its status. */
export interface EndpointWindow {
  delivered: number;
  failed: number;
}

/**
 * How the wallet's webhook endpoint is doing, computed from the log's entries (each entry's tries are counted at
 * the entry's last update: the service stamps only the first and last try).
 */
export interface EndpointHealth {
  /** When it was computed: the end of both windows and of the trend. */
  asOf: string;
  lastHour: EndpointWindow;
  lastDay: EndpointWindow;
  /** The last try the endpoint accepted. */
  lastSuccessAt: string | null;
  /** Failed tries since the last accepted one, newest first. */
  failureStreak: number;
  /** The last 24 hours, oldest first, one bucket an hour. */
  hourly: EndpointWindow[];
}

export interface WebhookLogPage {
  data: WebhookDeliveryGroup[];
  meta: { currentPage: number; itemsPerPage: number; totalItems: number; totalPages: number };
  /** Deliveries in the scanned log that still need someone (whatever the filters). */
  needsAttention: number;
  /** True when the scan stopped at its cap, so older deliveries (and older entries of old ones) are missing. */
  truncated: boolean;
  /** Event names seen in what was read, for the event filter. */
  events: string[];
  health: EndpointHealth;
}
