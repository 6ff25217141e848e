import 'server-only';
// Raising an alert: one outbox row per person and channel that asked for the event, written in the flow that
// caused it (never waiting on a mail server or webhook), and read back on the person's Account page.
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { alertChannels, alertOutbox, type ConsoleDb, users } from '@/lib/db/schema';
import type { AlertEvent, RecentAlert } from '@/lib/validation/alerts';

export interface RaisedAlert {
  event: AlertEvent | 'test';
  userIds: readonly string[];
  subject: string;
  body: string;
  /** The console page it is about, as a path (`/approvals/<id>`); the link is made absolute here. */
  path: string;
  /** One alert per cause and person: raising the same key again writes nothing. */
  dedupeKey: string;
}

export interface AlertSink {
  /** Writes the alert's outbox rows; returns how many were written. */
  raise(alert: RaisedAlert): Promise<number>;
}

export interface OutboxSettings {
  /** The console's own address (CONSOLE_ORIGIN): links in messages are absolute. */
  origin: string;
  /** Called after rows were written, so the worker may deliver at once instead of at its next round. */
  onRaised?: () => void;
}

function absoluteLink(origin: string, path: string): string {
  return new URL(path, origin.endsWith('/') ? origin : `${origin}/`).toString();
}

export function createAlertOutbox(db: ConsoleDb, settings: OutboxSettings): AlertSink {
  return {
    async raise(alert) {
      const ids = [...new Set(alert.userIds)].filter((id) => /^[0-9a-f-]{36}$/i.test(id));
      if (ids.length === 0) return 0;
      const channels = await db
        .select({ userId: alertChannels.userId, kind: alertChannels.kind, events: alertChannels.events })
        .from(alertChannels)
        .innerJoin(users, eq(users.id, alertChannels.userId))
        .where(
          and(inArray(alertChannels.userId, ids), eq(alertChannels.enabled, true), isNull(users.disabledAt)),
        );
      const link = absoluteLink(settings.origin, alert.path);
      const rows = channels
        .filter((c) => alert.event === 'test' || c.events.includes(alert.event))
        .map((c) => ({
          userId: c.userId,
          channel: c.kind,
          event: alert.event,
          dedupeKey: alert.dedupeKey,
          subject: alert.subject,
          body: alert.body,
          link,
        }));
      if (rows.length === 0) return 0;
      const written = await db
        .insert(alertOutbox)
        .values(rows)
        .onConflictDoNothing()
        .returning({ id: alertOutbox.id });
      if (written.length > 0) settings.onRaised?.();
      return written.length;
    },
  };
}

/** Everyone who may sign in: the audience of console-wide alerts (each person's channels decide who gets one). */
export async function activeUserIds(db: ConsoleDb): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(isNull(users.disabledAt));
  return rows.map((r) => r.id);
}

/** A person's newest alerts with their delivery status, one line per channel. */
export async function recentAlerts(db: ConsoleDb, userId: string, limit = 20): Promise<RecentAlert[]> {
  const rows = await db
    .select()
    .from(alertOutbox)
    .where(and(eq(alertOutbox.userId, userId), inArray(alertOutbox.channel, ['email', 'chat'])))
    .orderBy(desc(alertOutbox.createdAt))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    event: r.event as RecentAlert['event'],
    channel: r.channel as RecentAlert['channel'],
    subject: r.subject,
    link: r.link,
    status: r.status,
    attempts: r.attempts,
    lastError: r.lastError,
    createdAt: r.createdAt.toISOString(),
    sentAt: r.sentAt?.toISOString() ?? null,
    nextAttemptAt: r.status === 'pending' ? r.nextAttemptAt.toISOString() : null,
  }));
}
