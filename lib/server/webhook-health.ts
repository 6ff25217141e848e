import 'server-only';
// The endpoint's health, read from the webhook log (#22): delivered and failed tries over the last hour and day,
// the last success, the current failure streak and an hourly trend.
import type { WebhookLog } from '@/lib/custody/schemas';
import type { EndpointHealth, EndpointWindow } from '@/lib/validation/webhooks';

const HOUR_MS = 60 * 60 * 1000;
const HOURS = 24;

function time(value: string): number {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? 0 : ms;
}

/** The tries an entry stands for: all failed but the last, which has the entry's status; queued ones none yet. */
function triesOf(entry: WebhookLog): EndpointWindow {
  const counted = Number.isFinite(entry.attempts) ? Math.max(0, Math.floor(entry.attempts)) : 0;
  if (entry.status === 'success') return { delivered: 1, failed: Math.max(0, counted - 1) };
  if (entry.status === 'failed') return { delivered: 0, failed: Math.max(1, counted) };
  return { delivered: 0, failed: 0 };
}

/** Health as of `now`: the windows and the trend end there. */
export function endpointHealth(entries: readonly WebhookLog[], now: Date): EndpointHealth {
  const stamped = entries
    .map((entry) => ({ entry, at: time(entry.updatedAt) || time(entry.createdAt) }))
    .sort((a, b) => b.at - a.at);
  const end = now.getTime();
  const hourly: EndpointWindow[] = Array.from({ length: HOURS }, () => ({ delivered: 0, failed: 0 }));
  const lastHour = { delivered: 0, failed: 0 };
  const lastDay = { delivered: 0, failed: 0 };
  let lastSuccessAt: string | null = null;
  let failureStreak = 0;
  let streakOpen = true;
  for (const { entry, at } of stamped) {
    const tries = triesOf(entry);
    if (streakOpen) {
      // Newest first: the last try of a delivered entry ends the streak; its earlier failures came before it.
      if (tries.delivered > 0) streakOpen = false;
      else failureStreak += tries.failed;
    }
    if (tries.delivered > 0 && lastSuccessAt === null) lastSuccessAt = entry.updatedAt;
    const age = end - at;
    if (age < 0 || age >= HOURS * HOUR_MS) continue;
    lastDay.delivered += tries.delivered;
    lastDay.failed += tries.failed;
    if (age < HOUR_MS) {
      lastHour.delivered += tries.delivered;
      lastHour.failed += tries.failed;
    }
    const bucket = hourly[HOURS - 1 - Math.floor(age / HOUR_MS)];
    if (bucket) {
      bucket.delivered += tries.delivered;
      bucket.failed += tries.failed;
    }
  }
  return {
    asOf: now.toISOString(),
    lastHour,
    lastDay,
    lastSuccessAt,
    failureStreak,
    hourly,
  };
}
