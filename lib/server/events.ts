import 'server-only';
// The custody event bus: webhooks the receiver accepted, fanned out to server-side subscribers
// (SSE streams, the approvals follower). In-process on PGlite; through PostgreSQL LISTEN/NOTIFY when the
// console runs on PostgreSQL, so every console instance sees every event whichever instance received it.
import { getConfig } from '@/lib/config';
import { logger } from './logger';

/**
 * One accepted custody webhook, as subscribers see it. Never carries the payload: a subscriber that needs
 * the transaction reads it through `custodyFor(walletId)`, so nothing secret travels through the bus.
 */
export interface CustodyEvent {
  /** The `webhook_events` row id (unique per stored webhook). */
  id: string;
  walletId: string;
  /** The webhook's event name, e.g. `deposit.success`, `withdraw.failed`, `deposit.swept.success`. */
  event: string;
  transactionId: string;
  /** Transaction status at delivery time: PENDING, SUCCESS or FAILED. */
  status: string;
  /** Transaction type: DEPOSIT, WITHDRAW, SWAP, ... */
  type: string;
  reference: string;
  /** ISO 8601 time the console accepted the webhook. */
  receivedAt: string;
}

export type CustodyEventListener = (event: CustodyEvent) => void | Promise<void>;

/** How events leave and re-enter a process: straight to local listeners, or through a database channel. */
export interface EventTransport {
  /** Sends one serialized event; a transport delivers it back through the callback given to `start`. */
  publish(payload: string): Promise<void>;
  /** Begins receiving; called once, lazily, when the first listener subscribes or the first event is sent. */
  start(deliver: (payload: string) => void): Promise<void>;
  stop(): Promise<void>;
}

export const EVENTS_CHANNEL = 'custody_events';

export function inProcessTransport(): EventTransport {
  let sink: ((payload: string) => void) | null = null;
  return {
    async publish(payload) {
      // Delivered on a later tick, like a notification would be: a publisher never waits on listeners.
      queueMicrotask(() => sink?.(payload));
    },
    async start(deliver) {
      sink = deliver;
    },
    async stop() {
      sink = null;
    },
  };
}

/**
 * LISTEN/NOTIFY on PostgreSQL: one dedicated connection listens (a pooled connection would lose the LISTEN
 * when returned), publishing is `pg_notify` on any connection. Reconnects after a dropped connection.
 */
export function postgresTransport(connectionString: string, channel = EVENTS_CHANNEL): EventTransport {
  type PgClient = import('pg').Client;
  let listener: PgClient | null = null;
  let publisher: Promise<PgClient> | null = null;
  let stopped = false;
  let deliverFn: ((payload: string) => void) | null = null;
  const log = logger.child({ component: 'events', transport: 'postgres' });

  async function connect(): Promise<PgClient> {
    const { Client } = await import('pg');
    const client = new Client({ connectionString });
    await client.connect();
    return client;
  }

  async function listen(): Promise<void> {
    const client = await connect();
    client.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload) deliverFn?.(msg.payload);
    });
    client.on('error', (error) => {
      log.warn({ err: error }, 'event listener connection failed; reconnecting');
      listener = null;
      client.end().catch(() => {});
      scheduleReconnect();
    });
    await client.query(`LISTEN ${channel}`);
    listener = client;
  }

  function scheduleReconnect(delay = 1000) {
    if (stopped) return;
    setTimeout(() => {
      if (stopped || listener) return;
      listen().catch((error) => {
        log.warn({ err: error }, 'event listener reconnect failed');
        scheduleReconnect(Math.min(delay * 2, 30_000));
      });
    }, delay).unref?.();
  }

  return {
    async publish(payload) {
      // One publishing connection, opened once even when two events race to open it.
      publisher ??= connect().then((fresh) => {
        fresh.on('error', () => {
          publisher = null;
          fresh.end().catch(() => {});
        });
        return fresh;
      });
      publisher.catch(() => {
        publisher = null;
      });
      const client = await publisher;
      await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async start(deliver) {
      deliverFn = deliver;
      await listen();
    },
    async stop() {
      stopped = true;
      const pub = publisher;
      publisher = null;
      await Promise.all([listener?.end(), pub?.then((c) => c.end())].map((p) => p?.catch(() => {})));
      listener = null;
    },
  };
}

/**
 * NOTIFY through PGlite's own client: not used at run time (one PGlite process means in-process delivery is
 * enough) but it lets the tests drive the same serialize/notify/parse path as PostgreSQL.
 */
export function pgliteTransport(
  // biome-ignore lint/suspicious/noExplicitAny: PGlite client type is not imported into server bundles.
  client: any,
  channel = EVENTS_CHANNEL,
): EventTransport {
  let unlisten: (() => Promise<void>) | null = null;
  return {
    async publish(payload) {
      await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async start(deliver) {
      unlisten = await client.listen(channel, (payload: string) => deliver(payload));
    },
    async stop() {
      await unlisten?.();
      unlisten = null;
    },
  };
}

function isCustodyEvent(value: unknown): value is CustodyEvent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return ['id', 'walletId', 'event', 'transactionId', 'status', 'type', 'reference', 'receivedAt'].every(
    (k) => typeof v[k] === 'string',
  );
}

export interface EventBus {
  publish(event: CustodyEvent): Promise<void>;
  subscribe(listener: CustodyEventListener): () => void;
  /** Number of local subscribers (for tests and diagnostics). */
  size(): number;
  close(): Promise<void>;
}

export function createEventBus(transport: EventTransport): EventBus {
  const listeners = new Set<CustodyEventListener>();
  const log = logger.child({ component: 'events' });
  let started: Promise<void> | null = null;

  function deliver(payload: string) {
    let event: unknown;
    try {
      event = JSON.parse(payload);
    } catch {
      log.warn('ignored a malformed event notification');
      return;
    }
    if (!isCustodyEvent(event)) return;
    for (const listener of [...listeners]) {
      // One failing subscriber must not starve the others or the receiver.
      try {
        Promise.resolve(listener(event)).catch((error) => log.error({ err: error }, 'event listener failed'));
      } catch (error) {
        log.error({ err: error }, 'event listener failed');
      }
    }
  }

  function ensureStarted(): Promise<void> {
    started ??= transport.start(deliver).catch((error) => {
      started = null;
      throw error;
    });
    return started;
  }

  return {
    async publish(event) {
      await ensureStarted();
      await transport.publish(JSON.stringify(event));
    },
    subscribe(listener) {
      listeners.add(listener);
      ensureStarted().catch((error) => log.error({ err: error }, 'event transport failed to start'));
      return () => {
        listeners.delete(listener);
      };
    },
    size: () => listeners.size,
    async close() {
      listeners.clear();
      await transport.stop();
      started = null;
    },
  };
}

// One bus per process, shared across Next's server bundles (route handlers, actions, RSC).
const BUS = Symbol.for('custody-console.event-bus');
type Holder = { [BUS]?: EventBus };

function processBus(): EventBus {
  const holder = globalThis as Holder;
  if (!holder[BUS]) {
    // Read lazily, so importing this module opens nothing.
    const url = getConfig().env.DATABASE_URL;
    holder[BUS] = createEventBus(url ? postgresTransport(url) : inProcessTransport());
  }
  return holder[BUS];
}

/** Publishes an accepted custody event to every subscriber of every console instance. */
export function publishCustodyEvent(event: CustodyEvent): Promise<void> {
  return processBus().publish(event);
}

/**
 * Subscribes to custody events; returns the unsubscribe function. Listeners run after the webhook has been
 * stored and answered, may be async, and must not throw (errors are logged). Events can be missed while a
 * PostgreSQL connection reconnects: anything that must not miss an outcome also polls.
 */
export function onCustodyEvent(listener: CustodyEventListener): () => void {
  return processBus().subscribe(listener);
}

/** Test seam: replaces the process bus (e.g. with an in-process one over a test database). */
export function setProcessEventBus(bus: EventBus | undefined): void {
  (globalThis as Holder)[BUS] = bus;
}
