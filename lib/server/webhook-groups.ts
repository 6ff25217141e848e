import 'server-only';
// The webhook log (#22, #23) read as deliveries: every entry of one transaction and event is one delivery,
// since a resend makes the service log a new entry instead of updating the failed one.
import type { WebhookLog } from '@/lib/custody/schemas';
import type {
  DeliveryAttempt,
  DeliveryState,
  WebhookDeliveryGroup,
  WebhookLogStatusFilter,
} from '@/lib/validation/webhooks';

/** The transaction an entry belongs to: the spec says `reference` equals the transaction id. */
function transactionOf(entry: WebhookLog): string {
  return entry.payload?.id || entry.reference;
}

function time(value: string): number {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? 0 : ms;
}

/** Oldest first by createdAt, then updatedAt; entries the service stamped alike keep the order given. */
function byAge(a: { entry: WebhookLog; index: number }, b: { entry: WebhookLog; index: number }) {
  return (
    time(a.entry.createdAt) - time(b.entry.createdAt) ||
    time(a.entry.updatedAt) - time(b.entry.updatedAt) ||
    a.index - b.index
  );
}

/**
 * The tries an entry stands for. The service retries only after a failure, so every try but the last
 * failed; the last one has the entry's status and answer. Only the first and last try have a time.
 */
function attemptsOf(entry: WebhookLog, entryNumber: number, firstNumber: number): DeliveryAttempt[] {
  // An entry the service logged as success or failed was tried at least once; one still queued maybe not.
  const counted = Number.isFinite(entry.attempts) ? Math.max(0, Math.floor(entry.attempts)) : 0;
  const tries = Math.max(counted, entry.status === 'success' || entry.status === 'failed' ? 1 : 0);
  const lastOutcome: DeliveryAttempt['outcome'] =
    entry.status === 'success' ? 'delivered' : entry.status === 'failed' ? 'failed' : 'unknown';
  return Array.from({ length: tries }, (_, i) => {
    const last = i === tries - 1;
    return {
      number: firstNumber + i,
      entry: entryNumber,
      tryOfEntry: i + 1,
      triesOfEntry: tries,
      outcome: last ? lastOutcome : 'failed',
      at: last ? entry.updatedAt : i === 0 ? entry.createdAt : null,
      response: last ? entry.response : null,
    };
  });
}

function stateOf(entries: WebhookLog[]): DeliveryState {
  const latest = entries[entries.length - 1];
  if (latest?.status === 'failed') return 'failed';
  if (latest?.status !== 'success') return 'pending';
  return entries.some((e) => e.status === 'failed') ? 'resolved' : 'delivered';
}

/**
 * Groups log entries per transaction and event. Each group has its entries and tries oldest first, its
 * state from the latest entry (a failure later delivered is resolved), "first sent" from the first
 * entry's createdAt and "last attempt" from the last entry's updatedAt. Groups come newest first (by
 * their latest entry), so a resend brings its delivery to the top.
 */
export function groupDeliveries(entries: readonly WebhookLog[]): WebhookDeliveryGroup[] {
  const byKey = new Map<string, Array<{ entry: WebhookLog; index: number }>>();
  entries.forEach((entry, index) => {
    const key = `${transactionOf(entry)}:${entry.event}`;
    const list = byKey.get(key);
    if (list) {
      // The same entry read twice (pages shifting under a scan) counts once.
      if (!list.some((seen) => seen.entry.id === entry.id)) list.push({ entry, index });
    } else byKey.set(key, [{ entry, index }]);
  });
  const groups: WebhookDeliveryGroup[] = [];
  for (const [id, list] of byKey) {
    const ordered = [...list].sort(byAge).map((l) => l.entry);
    const first = ordered[0] as WebhookLog;
    const latest = ordered[ordered.length - 1] as WebhookLog;
    const attempts: DeliveryAttempt[] = [];
    ordered.forEach((entry, i) => {
      attempts.push(...attemptsOf(entry, i + 1, attempts.length + 1));
    });
    const state = stateOf(ordered);
    groups.push({
      id,
      transactionId: transactionOf(first),
      event: first.event,
      state,
      needsAttention: state === 'failed',
      entries: ordered,
      attempts,
      firstSentAt: first.createdAt,
      lastAttemptAt: latest.updatedAt,
      latest,
    });
  }
  return groups.sort(
    (a, b) =>
      time(b.latest.createdAt) - time(a.latest.createdAt) ||
      time(b.lastAttemptAt) - time(a.lastAttemptAt) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** Whether a delivery belongs under a status filter (see WEBHOOK_LOG_STATUS_FILTERS). */
export function matchesStatus(group: WebhookDeliveryGroup, status: WebhookLogStatusFilter | undefined) {
  if (!status) return true;
  if (status === 'failed') return group.needsAttention;
  if (status === 'resolved') return group.state === 'resolved';
  return group.state === 'delivered' || group.state === 'resolved';
}
