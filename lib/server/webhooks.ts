import 'server-only';
// Inbound custody webhooks (reading, verifying, storing once) and the webhook-log reads behind the pages.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { CustodyClient } from '@/lib/custody';
import type { WebhookLog } from '@/lib/custody/schemas';
import { type ConsoleDb, webhookEvents } from '@/lib/db/schema';
import type { WebhookDeliveryGroup, WebhookLogPage, WebhookLogQuery } from '@/lib/validation/webhooks';
import type { CustodyEvent } from './events';
import { groupDeliveries, matchesStatus } from './webhook-groups';
import { endpointHealth } from './webhook-health';

export type { WebhookDeliveryGroup, WebhookLogPage, WebhookLogQuery };

/** The receiver refuses bodies above 1 MB: a transaction payload is a few kB. */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

export type BodyRead = { ok: true; raw: string } | { ok: false; status: 400 | 413; error: string };

/**
 * Reads the raw body (the signature covers the exact bytes) with a size cap. Content-Length is checked
 * first, and bytes are also counted while reading, because a sender may lie about or omit the length
 * (chunked encoding).
 */
export async function readBodyLimited(
  request: Request,
  maxBytes = MAX_WEBHOOK_BODY_BYTES,
): Promise<BodyRead> {
  const tooLarge = { ok: false, status: 413, error: `Body larger than ${maxBytes} bytes` } as const;
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes) return tooLarge;
  if (!request.body) return { ok: true, raw: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return tooLarge;
    }
    chunks.push(value);
  }
  try {
    return { ok: true, raw: new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)) };
  } catch {
    return { ok: false, status: 400, error: 'Body is not UTF-8' };
  }
}

// Only the fields the receiver relies on are checked; the rest of the transaction passes through, so a
// field the service adds never makes the console drop an event.
const webhookEnvelope = z.object({
  event: z.string().min(1).max(200),
  data: z.looseObject({
    id: z.string().min(1).max(200),
    status: z.string().max(50),
    type: z.string().max(50),
    reference: z.string().max(500).nullish(),
    wallet: z.looseObject({ id: z.string().max(200).optional() }).nullish(),
  }),
});

export type WebhookEnvelope = z.output<typeof webhookEnvelope>;

export type WebhookParse =
  | { ok: true; envelope: WebhookEnvelope; walletId: string }
  | { ok: false; status: 400; error: string };

/** `{ event, data: Transaction }` with the wallet named in `data.wallet.id`. */
export function parseWebhookBody(raw: string): WebhookParse {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, status: 400, error: 'Body is not JSON' };
  }
  const parsed = webhookEnvelope.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      status: 400,
      error: `Malformed webhook: ${issue?.path.join('.') || 'body'} ${issue?.message ?? ''}`.trim(),
    };
  }
  const walletId = parsed.data.data.wallet?.id;
  if (!walletId) return { ok: false, status: 400, error: 'Malformed webhook: data.wallet.id is missing' };
  return { ok: true, envelope: parsed.data, walletId };
}

/** Hex HMAC-SHA512 of the raw body keyed by the wallet's API key (how the custody service signs). */
export function signWebhookBody(raw: string, apiKey: string): string {
  return createHmac('sha512', apiKey).update(raw, 'utf8').digest('hex');
}

const HEX_SHA512 = /^[0-9a-f]{128}$/i;

/**
 * True when `signature` is the HMAC of `raw` under one of `keys` (the current key and, during the grace
 * period after a rotation, the previous one). Constant-time on equal-length buffers so the comparison
 * leaks nothing about how much of a forged signature matched; every key is tried so the time does not
 * tell which key matched either.
 */
export function verifyWebhookSignature(
  raw: string,
  signature: string | null | undefined,
  keys: readonly string[],
): boolean {
  if (!signature || keys.length === 0) return false;
  const given = signature.trim();
  if (!HEX_SHA512.test(given)) return false;
  const givenBytes = Buffer.from(given.toLowerCase(), 'hex');
  let matched = false;
  for (const key of keys) {
    const expected = Buffer.from(signWebhookBody(raw, key), 'hex');
    if (expected.length === givenBytes.length && timingSafeEqual(expected, givenBytes)) matched = true;
  }
  return matched;
}

/** The same bytes delivered twice (retries, resends of an unchanged transaction) are one event. */
export function webhookDedupeKey(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

const SECRET_KEY = /(private.?key|mnemonic|seed|phrase|secret|password|api.?key|^key$|^code$)/i;
/** Fields of a wallet reference safe to keep; `business` and `apiCredential` carry secrets. */
const WALLET_REF_FIELDS = ['id', 'name', 'address', 'network', 'status', 'isActive', 'blockchain'] as const;

function stripSecrets(value: unknown, depth = 0): unknown {
  if (depth > 8) return null;
  if (Array.isArray(value)) return value.map((v) => stripSecrets(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_KEY.test(k) || k === 'business' || k === 'apiCredential') continue;
      out[k] = stripSecrets(v, depth + 1);
    }
    return out;
  }
  return value;
}

function walletRef(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of WALLET_REF_FIELDS) if (field in source) out[field] = stripSecrets(source[field]);
  return out;
}

/**
 * A webhook transaction payload as the console may store or show it: wallet references cut down to their
 * identifying fields, and any secret-looking field dropped wherever it sits (the spec says a payload may
 * carry a "reduced wallet/business sub-object", and the business object holds seed phrases).
 */
export function redactWebhookPayload<T>(payload: T): T {
  if (!payload || typeof payload !== 'object') return payload;
  const source = payload as Record<string, unknown>;
  const out = stripSecrets(source) as Record<string, unknown>;
  if ('wallet' in source) out.wallet = walletRef(source.wallet);
  if ('toWallet' in source) out.toWallet = walletRef(source.toWallet);
  return out as T;
}

/** A webhook log entry with its payload redacted, for pages and JSON answers. */
function redactWebhookLog(log: WebhookLog): WebhookLog {
  return { ...log, payload: redactWebhookPayload(log.payload) };
}

export interface StoredWebhook {
  event: CustodyEvent;
  duplicate: boolean;
}

/** Stores the event once; a second delivery of the same bytes finds the unique key taken and is a duplicate. */
export async function storeWebhookEvent(
  db: ConsoleDb,
  input: { raw: string; walletId: string; envelope: WebhookEnvelope; receivedAt?: Date },
): Promise<StoredWebhook> {
  const { envelope, walletId } = input;
  const data = envelope.data;
  const values = {
    dedupeKey: webhookDedupeKey(input.raw),
    walletId,
    event: envelope.event,
    transactionId: data.id,
    status: data.status,
    type: data.type,
    reference: data.reference ?? '',
    payload: redactWebhookPayload(data as Record<string, unknown>),
    receivedAt: input.receivedAt ?? new Date(),
  };
  const [row] = await db
    .insert(webhookEvents)
    .values(values)
    .onConflictDoNothing({ target: webhookEvents.dedupeKey })
    .returning();
  const stored = row ?? null;
  return {
    duplicate: stored === null,
    event: {
      id: stored?.id ?? '',
      walletId,
      event: values.event,
      transactionId: values.transactionId,
      status: values.status,
      type: values.type,
      reference: values.reference,
      receivedAt: (stored?.receivedAt ?? values.receivedAt).toISOString(),
    },
  };
}

/**
 * Runs `task` over `items` with at most `limit` in flight, keeping results in input order. Each item's
 * failure is a value, so one bad row never stops the rest of a bulk operation.
 */
export async function runPool<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<Array<{ ok: true; value: R } | { ok: false; error: unknown }>> {
  const results: Array<{ ok: true; value: R } | { ok: false; error: unknown }> = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = { ok: true, value: await task(items[index] as T, index) };
      } catch (error) {
        results[index] = { ok: false, error };
      }
    }
  };
  const width = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

// ---------------------------------------------------------------------------------------------------------
// Webhook log reads (#22, #23)

/** How the log is scanned: at the service's largest page size, up to 2,000 entries. */
const SCAN_PAGE = 100;
const SCAN_MAX_PAGES = 20;

/**
 * The newest entries of a wallet's log, page by page, payloads redacted. A delivery's entries can sit on
 * different upstream pages (a resend is logged as a new, newer entry), so grouping needs them all;
 * `truncated` says when the cap was hit.
 */
async function scanWebhookLog(
  client: CustodyClient,
  walletId: string,
  maxPages = SCAN_MAX_PAGES,
): Promise<{ entries: WebhookLog[]; truncated: boolean }> {
  const entries: WebhookLog[] = [];
  let truncated = false;
  for (let page = 1; ; page++) {
    const res = await client.webhooks.list({ walletId, page, limit: SCAN_PAGE });
    entries.push(...res.data.map(redactWebhookLog));
    if (page >= res.meta.totalPages || res.data.length === 0) break;
    if (page >= maxPages) {
      truncated = true;
      break;
    }
  }
  return { entries, truncated };
}

/**
 * One page of a wallet's deliveries: the log scanned (the spec's #22 takes only page and limit), grouped
 * per transaction and event, filtered by status and event here on the server, and paged locally.
 */
export async function loadWebhookLogPage(
  client: CustodyClient,
  walletId: string,
  query: WebhookLogQuery,
): Promise<WebhookLogPage> {
  const { entries, truncated } = await scanWebhookLog(client, walletId);
  const groups = groupDeliveries(entries);
  const matching = groups.filter(
    (group) => matchesStatus(group, query.status) && (!query.event || group.event === query.event),
  );
  const totalPages = Math.max(1, Math.ceil(matching.length / query.limit));
  const start = (query.page - 1) * query.limit;
  return {
    data: matching.slice(start, start + query.limit),
    meta: { currentPage: query.page, itemsPerPage: query.limit, totalItems: matching.length, totalPages },
    needsAttention: groups.filter((g) => g.needsAttention).length,
    truncated,
    events: [...new Set(entries.map((e) => e.event))].sort(),
    health: endpointHealth(entries, new Date()),
  };
}

/**
 * The transactions whose delivery still needs someone (its latest send failed) and failed at or after `since`,
 * newest first, one per transaction: a delivery later delivered is not among them, so nothing is sent twice.
 */
export async function failedDeliveriesSince(
  client: CustodyClient,
  walletId: string,
  since: Date,
): Promise<{ transactionIds: string[]; truncated: boolean }> {
  const { entries, truncated } = await scanWebhookLog(client, walletId);
  const ids = groupDeliveries(entries)
    .filter((g) => g.needsAttention && Date.parse(g.lastAttemptAt) >= since.getTime())
    .map((g) => g.transactionId);
  return { transactionIds: [...new Set(ids)], truncated };
}

/** Deliveries of one transaction (#23), one per event, with every entry and try; payloads redacted. */
export async function loadTransactionDeliveries(
  client: CustodyClient,
  walletId: string,
  transactionId: string,
): Promise<WebhookDeliveryGroup[]> {
  const res = await client.webhooks.forTransaction({ walletId, transactionId });
  return groupDeliveries(res.data.map(redactWebhookLog));
}
