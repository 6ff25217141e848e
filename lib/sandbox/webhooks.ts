import 'server-only';
// Webhook delivery: queued rows in sandbox_webhook_logs, POSTed with an HMAC-SHA512 signature, retried on a schedule.
import { createHmac } from 'node:crypto';
import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import type { SandboxCore } from './core';
import { sandboxWebhookLogs } from './db/schema';

type WebhookRow = typeof sandboxWebhookLogs.$inferSelect;

const DELIVERY_TIMEOUT_MS = 10_000;
const BATCH = 50;

/** Hex HMAC-SHA512 of the raw body keyed by the wallet's API key (the receiver recomputes it). */
function signWebhookBody(body: string, apiKey: string): string {
  return createHmac('sha512', apiKey).update(body).digest('hex');
}

function webhookBody(row: Pick<WebhookRow, 'event' | 'payload'>): string {
  return JSON.stringify({ event: row.event, data: row.payload });
}

/**
 * Attempts every due delivery once. With `ignoreSchedule`, retries waiting for their backoff are
 * attempted now (tests drive retries without sleeping). Returns how many attempts were made.
 */
export async function deliverDue(
  core: SandboxCore,
  inFlight: Set<string>,
  ignoreSchedule = false,
): Promise<number> {
  const now = new Date(core.nowMs());
  const due = await core.db
    .select()
    .from(sandboxWebhookLogs)
    .where(
      ignoreSchedule
        ? isNotNull(sandboxWebhookLogs.nextAttemptAt)
        : and(isNotNull(sandboxWebhookLogs.nextAttemptAt), lte(sandboxWebhookLogs.nextAttemptAt, now)),
    )
    .orderBy(asc(sandboxWebhookLogs.nextAttemptAt))
    .limit(BATCH);
  const mine = due.filter((row) => !inFlight.has(row.id));
  for (const row of mine) inFlight.add(row.id);
  try {
    await Promise.all(mine.map((row) => attempt(core, row)));
  } finally {
    for (const row of mine) inFlight.delete(row.id);
  }
  return mine.length;
}

async function attempt(core: SandboxCore, row: WebhookRow): Promise<void> {
  const apiKey = core.catalog.apiKeys.get(row.walletId);
  if (!apiKey) return;
  const body = webhookBody(row);
  let ok = false;
  let response: string | { status: number; text: string };
  try {
    const res = await core.options.fetch(row.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'custody-sandbox-webhooks/1',
        [core.options.signatureHeader]: signWebhookBody(body, apiKey),
      },
      body,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      redirect: 'manual',
    });
    const text = (await res.text()).slice(0, 2000);
    ok = res.status >= 200 && res.status < 300;
    response = ok ? text : { status: res.status, text };
  } catch (error) {
    // A network error has no HTTP status; 0 keeps the spec's {status, text} shape.
    response = { status: 0, text: error instanceof Error ? error.message : String(error) };
  }
  const attempts = row.attempts + 1;
  const schedule = core.options.webhookRetryMs;
  const retryIn = ok ? undefined : schedule[attempts - 1];
  await core.db
    .update(sandboxWebhookLogs)
    .set({
      attempts,
      status: ok ? 'success' : 'failed',
      response,
      nextAttemptAt: retryIn === undefined ? null : new Date(core.nowMs() + retryIn),
      updatedAt: core.stamp(),
    })
    .where(eq(sandboxWebhookLogs.id, row.id));
}

export async function countQueued(core: SandboxCore): Promise<number> {
  const rows = await core.db
    .select({ id: sandboxWebhookLogs.id })
    .from(sandboxWebhookLogs)
    .where(isNotNull(sandboxWebhookLogs.nextAttemptAt))
    .limit(1);
  return rows.length;
}
