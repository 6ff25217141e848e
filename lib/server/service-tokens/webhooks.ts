import 'server-only';
// What an API token's system hears without polling: every step of its requests (requested, approved, submitted,
// settled, …), read from the requests' own timeline and written to the alert outbox as `system` rows, which the
// alert worker signs and delivers with its retries. The timeline is read by a cursor, so a step is queued once
// (the outbox's dedupe key is the event id) even when two rounds or two console instances read the same events.
import { and, asc, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
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
import { TOKEN_WEBHOOK_BINDING } from '../approvals/operations/service-tokens';
import { toApiRequest } from './contract';

const BATCH = 200;

/** Events of the last hour are queued when the console starts (a restart does not replay older ones). */
const START_WINDOW_MS = 3_600_000;

/**
 * The cursor stays this far behind the newest event: an event's id is taken when it is inserted, so one written in a
 * transaction that commits a moment later can appear below an id already read. Events read again are not queued
 * again (the outbox's dedupe key).
 */
const SETTLE_MS = 30_000;

export function createTokenEventQueue(db: ConsoleDb, now: () => Date = () => new Date()) {
  let cursor: number | null = null;
  return async function queueTokenEvents(): Promise<number> {
    const rows = await db
      .select({
        eventId: operationEvents.id,
        kind: operationEvents.kind,
        at: operationEvents.at,
        request: operationRequests,
        tokenId: serviceTokens.id,
      })
      .from(operationEvents)
      .innerJoin(operationRequests, eq(operationRequests.id, operationEvents.requestId))
      .innerJoin(serviceTokens, sql`${operationRequests.requesterId} = 'token:' || ${serviceTokens.id}::text`)
      .where(
        and(
          cursor === null
            ? gt(operationEvents.at, new Date(now().getTime() - START_WINDOW_MS))
            : gt(operationEvents.id, cursor),
          isNotNull(serviceTokens.webhookUrl),
          isNull(serviceTokens.revokedAt),
        ),
      )
      .orderBy(asc(operationEvents.id))
      .limit(BATCH);
    if (rows.length === 0) {
      if (cursor === null) {
        const [last] = await db
          .select({ id: sql<number>`coalesce(max(${operationEvents.id}), 0)` })
          .from(operationEvents);
        cursor = Number(last?.id ?? 0);
      }
      return 0;
    }
    const ids = [...new Set(rows.map((r) => r.request.id))];
    const [approvals, items] = await Promise.all([
      db.select().from(operationApprovals).where(inArray(operationApprovals.requestId, ids)),
      db.select().from(operationItems).where(inArray(operationItems.requestId, ids)),
    ]);
    const outbox = rows.map((r) => {
      const body = JSON.stringify({
        id: `evt_${r.eventId}`,
        type: `request.${r.kind}`,
        createdAt: r.at.toISOString(),
        data: toApiRequest(
          r.request,
          approvals.filter((a) => a.requestId === r.request.id),
          items.filter((i) => i.requestId === r.request.id).sort((a, b) => a.index - b.index),
        ),
      });
      return {
        userId: r.tokenId,
        channel: 'system' as const,
        event: 'request_state',
        dedupeKey: `event:${r.eventId}`,
        subject: `request.${r.kind}`,
        body,
        link: `/approvals/${r.request.id}`,
      };
    });
    const written = await db
      .insert(alertOutbox)
      .values(outbox)
      .onConflictDoNothing()
      .returning({ id: alertOutbox.id });
    cursor = Math.max(cursor ?? 0, ...rows.map((r) => r.eventId));
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
    url: decryptSecret(token.webhookUrl, key, TOKEN_WEBHOOK_BINDING),
    secret: decryptSecret(token.webhookSecretSealed, key, TOKEN_WEBHOOK_BINDING),
  };
}
