import 'server-only';
// A person's alert channels: read for the Account page (never the chat webhook's URL) and saved from its form.
import { and, eq } from 'drizzle-orm';
import { encryptSecret } from '@/lib/crypto/aead';
import { alertChannels, type ConsoleDb } from '@/lib/db/schema';
import {
  ALERT_EVENTS,
  type AlertChannelKind,
  type AlertChannelView,
  type AlertEvent,
  type AlertSettings,
} from '@/lib/validation/alerts';
import { type OutboundRules, outboundUrlProblem } from './outbound';
import { chatBinding } from './worker';

export async function alertChannelsOf(db: ConsoleDb, userId: string): Promise<AlertChannelView[]> {
  const rows = await db.select().from(alertChannels).where(eq(alertChannels.userId, userId));
  return rows.map((r) => ({
    kind: r.kind,
    enabled: r.enabled,
    hint: r.targetHint,
    events: r.events.filter((e): e is AlertEvent => (ALERT_EVENTS as readonly string[]).includes(e)),
  }));
}

/** "hooks.slack.com …x9Qz": enough to recognise a webhook, not enough to use it. */
function chatHint(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host} …${url.slice(-4)}`;
}

export type SaveOutcome = { ok: true } | { ok: false; fieldErrors: Record<string, string> };

export async function saveAlertSettings(
  db: ConsoleDb,
  userId: string,
  input: AlertSettings,
  secrets: { key: Buffer; rules: OutboundRules },
): Promise<SaveOutcome> {
  const [saved] = await db
    .select({ id: alertChannels.id })
    .from(alertChannels)
    .where(and(eq(alertChannels.userId, userId), eq(alertChannels.kind, 'chat')))
    .limit(1);
  if (input.chatEnabled && input.chatUrl === '' && !saved)
    return { ok: false, fieldErrors: { chatUrl: 'Enter the webhook URL' } };
  if (input.chatUrl !== '') {
    const problem = await outboundUrlProblem(input.chatUrl, secrets.rules);
    if (problem) return { ok: false, fieldErrors: { chatUrl: problem } };
  }
  const at = new Date();
  const upsert = async (
    kind: AlertChannelKind,
    enabled: boolean,
    events: AlertEvent[],
    target?: { value: string; hint: string },
  ) => {
    if (target)
      await db
        .insert(alertChannels)
        .values({
          userId,
          kind,
          enabled,
          events,
          target: target.value,
          targetHint: target.hint,
          updatedAt: at,
        })
        .onConflictDoUpdate({
          target: [alertChannels.userId, alertChannels.kind],
          set: { enabled, events, target: target.value, targetHint: target.hint, updatedAt: at },
        });
    else
      await db
        .update(alertChannels)
        .set({ enabled, events, updatedAt: at })
        .where(and(eq(alertChannels.userId, userId), eq(alertChannels.kind, kind)));
  };
  const email = input.email.trim();
  await upsert(
    'email',
    input.emailEnabled,
    input.emailEvents,
    email ? { value: email, hint: email } : undefined,
  );
  await upsert(
    'chat',
    input.chatEnabled,
    input.chatEvents,
    input.chatUrl
      ? {
          value: encryptSecret(input.chatUrl, secrets.key, chatBinding(userId)),
          hint: chatHint(input.chatUrl),
        }
      : undefined,
  );
  return { ok: true };
}
