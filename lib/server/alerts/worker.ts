import 'server-only';
// Delivers the alert outbox: takes due rows (a lease, so two rounds or two console instances never send one row
// at the same time), sends each on its channel, records every try, and backs off exponentially up to a cap
// until the row is sent or has used its tries.
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { backoffDelay } from '@/lib/backoff';
import { decryptSecret } from '@/lib/crypto/aead';
import {
  type AlertChannelRow,
  type AlertOutboxRow,
  alertAttempts,
  alertChannels,
  alertOutbox,
  type ConsoleDb,
} from '@/lib/db/schema';
import { type AlertSenders, DeliveryError } from './senders';

export interface RetrySettings {
  /** Tries before a row is given up. */
  maxAttempts: number;
  /** Wait after the first failure; doubled after each one. */
  baseMs: number;
  /** The longest wait between two tries. */
  capMs: number;
}

const DEFAULT_RETRY: RetrySettings = { maxAttempts: 8, baseMs: 5_000, capMs: 600_000 };

export interface AlertWorkerDeps {
  db: ConsoleDb;
  senders: AlertSenders;
  /** Opens a chat channel's sealed webhook URL. */
  openChatUrl(channel: AlertChannelRow): string;
  /** An API token's webhook URL and signing secret (a `system` row's userId is the token id); null: none now. */
  systemWebhook?(tokenId: string): Promise<{ url: string; secret: string } | null>;
  retry?: Partial<RetrySettings>;
  now?: () => Date;
  /** How long a taken row is left alone before another round may take it again (a round that died). */
  leaseMs?: number;
  batch?: number;
}

/** The chat channel's URL is sealed to its person and kind. */
export function chatBinding(userId: string): string {
  return `alert-chat:${userId}`;
}

export function sealedChatOpener(key: Buffer) {
  return (channel: AlertChannelRow) => decryptSecret(channel.target, key, chatBinding(channel.userId));
}

/** One round: delivers what is due; returns what happened to each row taken. */
export async function deliverDueAlerts(deps: AlertWorkerDeps): Promise<{ sent: number; failed: number }> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const retry = { ...DEFAULT_RETRY, ...deps.retry };
  const leaseMs = deps.leaseMs ?? 60_000;
  const at = now();
  const due = db
    .select({ id: alertOutbox.id })
    .from(alertOutbox)
    .where(and(eq(alertOutbox.status, 'pending'), lte(alertOutbox.nextAttemptAt, at)))
    .orderBy(asc(alertOutbox.nextAttemptAt))
    .limit(deps.batch ?? 20)
    .for('update', { skipLocked: true });
  const taken = await db
    .update(alertOutbox)
    .set({ nextAttemptAt: new Date(at.getTime() + leaseMs) })
    .where(and(inArray(alertOutbox.id, due), eq(alertOutbox.status, 'pending')))
    .returning();
  const outcomes = await Promise.all(taken.map((row) => deliverOne(deps, row, retry, now)));
  return {
    sent: outcomes.filter((o) => o === 'sent').length,
    failed: outcomes.filter((o) => o !== 'sent').length,
  };
}

async function deliverOne(
  deps: AlertWorkerDeps,
  row: AlertOutboxRow,
  retry: RetrySettings,
  now: () => Date,
): Promise<'sent' | 'retry' | 'failed'> {
  const { db } = deps;
  const started = Date.now();
  let error: string | null = null;
  let final = false;
  try {
    if (row.channel === 'system') {
      const target = await deps.systemWebhook?.(row.userId);
      if (!target) {
        // Revoked, expired or without a webhook since: nobody to tell, nothing to retry.
        final = true;
        throw new DeliveryError('The token has no webhook now (revoked, expired or removed)');
      }
      await deps.senders.system(target.url, target.secret, row.body);
    } else {
      const [channel] = await db
        .select()
        .from(alertChannels)
        .where(and(eq(alertChannels.userId, row.userId), eq(alertChannels.kind, row.channel)))
        .limit(1);
      if (!channel?.enabled) {
        // The person switched the channel off since: nothing to send it to, and nothing to retry.
        final = true;
        throw new DeliveryError('The channel was switched off');
      }
      const message = { subject: row.subject, body: row.body, link: row.link };
      if (row.channel === 'email') await deps.senders.email(channel.target, message);
      else await deps.senders.chat(deps.openChatUrl(channel), message);
    }
  } catch (caught) {
    error = caught instanceof DeliveryError ? caught.message : 'Could not deliver';
  }
  return recordTry(deps, row, retry, now, started, error, final);
}

/** Writes the try and moves the row on: sent, given up, or due again after the backoff. */
async function recordTry(
  deps: AlertWorkerDeps,
  row: AlertOutboxRow,
  retry: RetrySettings,
  now: () => Date,
  started: number,
  error: string | null,
  final: boolean,
): Promise<'sent' | 'retry' | 'failed'> {
  const { db } = deps;
  const attempts = row.attempts + 1;
  const at = now();
  await db.insert(alertAttempts).values({
    outboxId: row.id,
    at,
    ok: error === null,
    error,
    durationMs: Date.now() - started,
  });
  if (error === null) {
    await db
      .update(alertOutbox)
      .set({ status: 'sent', attempts, sentAt: at, lastError: null })
      .where(eq(alertOutbox.id, row.id));
    return 'sent';
  }
  const givenUp = final || attempts >= retry.maxAttempts;
  await db
    .update(alertOutbox)
    .set({
      status: givenUp ? 'failed' : 'pending',
      attempts,
      lastError: error,
      // After `attempts` failures: `baseMs` after the first, doubling, at most `capMs`.
      nextAttemptAt: new Date(at.getTime() + (givenUp ? 0 : backoffDelay(attempts - 1, retry))),
    })
    .where(eq(alertOutbox.id, row.id));
  return givenUp ? 'failed' : 'retry';
}
