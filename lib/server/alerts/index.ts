import 'server-only';
// Alerts outside the console, wired once per process: the outbox every part of the console raises alerts into,
// the worker that delivers it, and the periodic checks.
import { logger } from '../logger';
import { createTokenEventQueue, tokenWebhook } from '../service-tokens/webhooks';
import { type ConsoleServices, currentServices } from '../services';
import { runAlertChecks } from './checks';
import { outboundRules } from './outbound';
import { type AlertSink, activeUserIds, createAlertOutbox } from './outbox';
import { createAlertSenders } from './senders';
import { deliverDueAlerts, sealedChatOpener } from './worker';

export type { AlertSink, RaisedAlert } from './outbox';

const ALERTS = Symbol.for('custody-console.alerts');
type Holder = {
  [ALERTS]?: { sink: AlertSink; wake: () => void; timers: ReturnType<typeof setInterval>[] };
};

/** How often the worker looks for due deliveries (a raised alert also wakes it at once). */
const WORKER_MS = 2_000;

/** Where chat webhooks may point on this console. */
export function alertOutboundRules(services: ConsoleServices) {
  return outboundRules(services.config.env.ALERT_WEBHOOK_CIDRS, services.config.sandboxMode);
}

function wire(services: ConsoleServices) {
  const holder = globalThis as Holder;
  if (holder[ALERTS]) return holder[ALERTS];
  const { env } = services.config;
  const db = services.database.db;
  const log = logger.child({ component: 'alerts' });
  const senders = createAlertSenders({
    smtpUrl: env.SMTP_URL,
    from: env.ALERT_FROM,
    rules: alertOutboundRules(services),
  });
  // API tokens' request steps join the outbox at the start of each round.
  const queueTokenEvents = createTokenEventQueue(db);
  let delivering = false;
  let again = false;
  const round = () => {
    if (delivering) {
      again = true;
      return;
    }
    delivering = true;
    queueTokenEvents()
      // The systems' webhooks failing to queue never holds people's alerts back.
      .catch((error) => log.warn({ err: error }, 'queueing API token events failed'))
      .then(() =>
        deliverDueAlerts({
          db,
          senders,
          openChatUrl: sealedChatOpener(services.config.encryptionKey),
          systemWebhook: (tokenId) => tokenWebhook(db, services.config.encryptionKey, tokenId),
          retry: { maxAttempts: env.ALERT_MAX_ATTEMPTS },
        }),
      )
      .catch((error) => log.warn({ err: error }, 'alert delivery round failed'))
      .finally(() => {
        delivering = false;
        if (again) {
          again = false;
          round();
        }
      });
  };
  const sink = createAlertOutbox(db, {
    origin: services.config.origin,
    // Delivery starts after the caller's own work: never on its path.
    onRaised: () => setImmediate(round),
  });
  const wired = { sink, wake: round, timers: [] as ReturnType<typeof setInterval>[] };
  holder[ALERTS] = wired;
  return wired;
}

/** The process's alert outbox. */
export function alertSinkFor(services: ConsoleServices): AlertSink {
  return wire(services).sink;
}

/** Starts the delivery worker and the periodic checks once per process. */
export function startAlerts(services: ConsoleServices): void {
  const wired = wire(services);
  if (wired.timers.length > 0) return;
  const { env } = services.config;
  const log = logger.child({ component: 'alerts' });
  const worker = setInterval(wired.wake, WORKER_MS);
  worker.unref?.();
  let checking = false;
  const checks = setInterval(() => {
    if (checking) return;
    checking = true;
    runAlertChecks({
      db: services.database.db,
      sink: wired.sink,
      clientFor: (walletId) => services.custody.clientFor(walletId),
      streakThreshold: env.ALERT_WEBHOOK_STREAK,
      pendingMinutes: env.ALERT_PENDING_MINUTES,
      gasMinBalance: env.ALERT_GAS_MIN_BALANCE,
    })
      .catch((error) => log.warn({ err: error }, 'alert checks failed'))
      .finally(() => {
        checking = false;
      });
  }, env.ALERT_CHECK_INTERVAL_MS);
  checks.unref?.();
  wired.timers.push(worker, checks);
}

/**
 * A configuration change that takes effect without a second approval (disabling a user, the one admin adding a
 * second): the same alert as a change carried out after its approval. Never fails the change.
 */
export async function alertConfigurationChange(change: {
  key: string;
  summary: string;
  by: string;
  path: string;
}): Promise<void> {
  try {
    const services = await currentServices();
    await alertSinkFor(services).raise({
      event: 'configuration_changed',
      userIds: await activeUserIds(services.database.db),
      subject: `Configuration changed: ${change.summary}`,
      body: `${change.summary}, by ${change.by}, took effect.`,
      path: change.path,
      dedupeKey: `configuration:${change.key}`,
    });
  } catch (error) {
    logger.warn({ err: error }, 'could not write a configuration alert to the outbox');
  }
}
