import 'server-only';
// What an API token's system hears without polling: every step of its requests (requested, approved, submitted,
// settled, …), read from the requests' own timeline and written to the alert outbox as `system` rows, which the
// alert worker signs and delivers with its retries. A step is queued once (the outbox's dedupe key is the event
// id) even when two rounds or two console instances read the same events.
import { and, asc, eq, gt, inArray, isNotNull, isNull, notExists, sql } from 'drizzle-orm';
import { decryptSecret } from '@/lib/crypto/aead';
import {
  alertOutbox,
  type ConsoleDb,
  operationApprovals,
  operationEvents,
  operationItems,
  operationRequests,
  serviceTokens,
} from '@/lib/db/schema';
import { tokenWebhookBinding } from '../approvals/operations/service-tokens';
import { SYSTEM_EVENT_KINDS, toApiRequest } from './contract';

const BATCH = 200;

/** How far back a step not queued yet is still queued (a console that was down that long tells nothing older). */
const LOOKBACK_MS = 7 * 86_400_000;

export function createTokenEventQueue(db: ConsoleDb, now: () => Date = () => new Date()) {
  /**
   * Queues every posted step of a live token's request not queued yet: read from the token's requests (not by a
   * cursor, so an event whose transaction commits late is still found), written once (the outbox's dedupe key).
   */
  return async function queueTokenEvents(): Promise<number> {
    const rows = await db
      .select({
        eventId: operationEvents.id,
        kind: operationEvents.kind,
        at: operationEvents.at,
        request: operationRequests,
        tokenId: serviceTokens.id,
      })
      .from(serviceTokens)
      .innerJoin(
        operationRequests,
        sql`${operationRequests.requesterId} = 'token:' || ${serviceTokens.id}::text`,
      )
      .innerJoin(operationEvents, eq(operationEvents.requestId, operationRequests.id))
      .where(
        and(
          isNotNull(serviceTokens.webhookUrl),
          isNull(serviceTokens.revokedAt),
          gt(operationEvents.at, new Date(now().getTime() - LOOKBACK_MS)),
          inArray(operationEvents.kind, [...SYSTEM_EVENT_KINDS]),
          notExists(
            db
              .select({ one: sql`1` })
              .from(alertOutbox)
              .where(
                and(
                  eq(alertOutbox.userId, serviceTokens.id),
                  eq(alertOutbox.channel, 'system'),
                  eq(alertOutbox.dedupeKey, sql`'event:' || ${operationEvents.id}::text`),
                ),
              ),
          ),
        ),
      )
      .orderBy(asc(operationEvents.id))
      .limit(BATCH);
    if (rows.length === 0) return 0;
    const ids = [...new Set(rows.map((r) => r.request.id))];
    const [approvals, items] = await Promise.all([
      db.select().from(operationApprovals).where(inArray(operationApprovals.requestId, ids)),
      db.select().from(operationItems).where(inArray(operationItems.requestId, ids)),
    ]);
    const outbox = rows.map((r) => ({
      userId: r.tokenId,
      channel: 'system' as const,
      event: 'request_state',
      dedupeKey: `event:${r.eventId}`,
      subject: `request.${r.kind}`,
      body: JSON.stringify({
        id: `evt_${r.eventId}`,
        type: `request.${r.kind}`,
        createdAt: r.at.toISOString(),
        data: toApiRequest(
          r.request,
          approvals.filter((a) => a.requestId === r.request.id),
          items.filter((i) => i.requestId === r.request.id).sort((a, b) => a.index - b.index),
        ),
      }),
      link: `/approvals/${r.request.id}`,
    }));
    const written = await db
      .insert(alertOutbox)
      .values(outbox)
      .onConflictDoNothing()
      .returning({ id: alertOutbox.id });
    return written.length;
  };
}

/** The webhook of a live token, opened for one delivery; null when it has none (or was revoked or expired). */
export async function tokenWebhook(
  db: ConsoleDb,
  key: Buffer,
  tokenId: string,
): Promise<{ url: string; secret: string } | null> {
  const [token] = await db.select().from(serviceTokens).where(eq(serviceTokens.id, tokenId)).limit(1);
  if (!token?.webhookUrl || !token.webhookSecretSealed || token.revokedAt || token.expiresAt <= new Date())
    return null;
  return {
    url: decryptSecret(token.webhookUrl, key, tokenWebhookBinding(token.id, 'url')),
    secret: decryptSecret(token.webhookSecretSealed, key, tokenWebhookBinding(token.id, 'secret')),
  };
}
