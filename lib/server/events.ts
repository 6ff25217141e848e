import 'server-only';
// The custody event bus: webhooks the receiver accepted, fanned out to server-side subscribers
// (SSE streams, the approvals follower). In-process on PGlite; through PostgreSQL LISTEN/NOTIFY when the
// console runs on PostgreSQL, so every console instance sees every event whichever instance received it.
import { randomUUID } from 'node:crypto';
import { backoffDelay } from '@/lib/backoff';
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

const EVENTS_CHANNEL = 'custody_events';

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
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. An event that large (a subscriber-visible
 * field such as a long reference in multi-byte characters) travels as numbered parts instead, all sent by one
 * statement so they commit together, and is reassembled by each listener.
 */
export const NOTIFY_PAYLOAD_LIMIT_BYTES = 7999;
const PART_PREFIX = 'part:';
// Base64 keeps a part's byte length equal to its character length, so slicing never splits a character.
const PART_DATA_CHARS = 7_000;
/** Parts of an event that never completed (a listener that reconnected mid-way) are dropped after this. */
const PART_TTL_MS = 60_000;
/** Bounds the reassembly buffers: about 1 MB per event, 100 unfinished events. */
const MAX_PARTS = 150;
const MAX_PENDING = 100;

/** The notifications that carry one serialized event: itself when it fits, else numbered parts. */
export function notifyPayloads(payload: string, limitBytes = NOTIFY_PAYLOAD_LIMIT_BYTES): string[] {
  if (Buffer.byteLength(payload, 'utf8') <= limitBytes && !payload.startsWith(PART_PREFIX)) return [payload];
  const data = Buffer.from(payload, 'utf8').toString('base64');
  const count = Math.ceil(data.length / PART_DATA_CHARS);
  if (count > MAX_PARTS) throw new Error(`event of ${payload.length} characters is too large to publish`);
  const id = randomUUID();
  return Array.from(
    { length: count },
    (_, i) =>
      `${PART_PREFIX}${id}:${i}:${count}:${data.slice(i * PART_DATA_CHARS, (i + 1) * PART_DATA_CHARS)}`,
  );
}

/** Reassembles parted notifications; anything else passes straight through. */
export function notifyReassembler(deliver: (payload: string) => void): (notification: string) => void {
  const pending = new Map<string, { parts: Array<string | undefined>; missing: number; since: number }>();
  return (notification) => {
    if (!notification.startsWith(PART_PREFIX)) {
      deliver(notification);
      return;
    }
    const match = /^part:([0-9a-f-]{36}):(\d+):(\d+):([A-Za-z0-9+/=]*)$/.exec(notification);
    if (!match) return;
    // Every group of the pattern takes part in a match: the defaults never apply.
    const [, id = '', indexText = '', countText = '', data = ''] = match;
    const index = Number(indexText);
    const count = Number(countText);
    if (count < 1 || count > MAX_PARTS || index >= count) return;
    const now = Date.now();
    for (const [key, entry] of pending) if (now - entry.since > PART_TTL_MS) pending.delete(key);
    let entry = pending.get(id);
    if (!entry) {
      if (pending.size >= MAX_PENDING) return;
      entry = { parts: new Array(count), missing: count, since: now };
      pending.set(id, entry);
    }
    if (entry.parts.length !== count || entry.parts[index] !== undefined) return;
    entry.parts[index] = data;
    entry.missing -= 1;
    if (entry.missing > 0) return;
    pending.delete(id);
    deliver(Buffer.from(entry.parts.join(''), 'base64').toString('utf8'));
  };
}

/**
 * LISTEN/NOTIFY on PostgreSQL: one dedicated connection listens (a pooled connection would lose the LISTEN
 * when returned), publishing is `pg_notify` on one other connection. The listening connection is replaced
 * when it drops (a restarted server, `pg_terminate_backend`, a network cut caught by TCP keep-alive);
 * notifications sent while it is away are not replayed.
 */
export function postgresTransport(
  connectionString: string,
  channel = EVENTS_CHANNEL,
  options: { reconnectMs?: number } = {},
): EventTransport {
  type PgClient = import('pg').Client;
  const firstDelay = options.reconnectMs ?? 1000;
  let listener: PgClient | null = null;
  let reconnecting = false;
  let publisher: Promise<PgClient> | null = null;
  let stopped = false;
  let receive: ((notification: string) => void) | null = null;
  const log = logger.child({ component: 'events', transport: 'postgres' });

  async function connect(): Promise<PgClient> {
    const { Client } = await import('pg');
    const client = new Client({ connectionString, keepAlive: true });
    try {
      await client.connect();
    } catch (error) {
      client.end().catch(() => {});
      throw error;
    }
    return client;
  }

  async function listen(): Promise<void> {
    const client = await connect();
    let lost = false;
    // An idle client reports a dropped connection as 'error' and then 'end'; a closing one only as 'end'.
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (listener === client) listener = null;
      client.end().catch(() => {});
      if (stopped) return;
      // The message only: a driver error may carry the client and its connection parameters.
      log.warn(
        { reason: error?.message ?? 'connection ended' },
        'event listener connection lost; reconnecting',
      );
      scheduleReconnect(0);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload) receive?.(msg.payload);
    });
    try {
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      lost = true;
      client.end().catch(() => {});
      throw error;
    }
    if (stopped || lost) {
      lost = true;
      client.end().catch(() => {});
      return;
    }
    listener = client;
  }

  /** Tries to listen again after a wait: `firstDelay`, doubling with each `retry` that fails, at most 30 s. */
  function scheduleReconnect(retry: number) {
    if (stopped || reconnecting) return;
    reconnecting = true;
    const delay = backoffDelay(retry, { baseMs: firstDelay, capMs: 30_000 });
    setTimeout(() => {
      reconnecting = false;
      if (stopped || listener) return;
      listen().catch((error) => {
        log.warn(
          { reason: error instanceof Error ? error.message : String(error) },
          'event listener reconnect failed',
        );
        scheduleReconnect(retry + 1);
      });
    }, delay).unref?.();
  }

  function publishingClient(): Promise<PgClient> {
    // One publishing connection, opened once even when two events race to open it.
    if (!publisher) {
      const opening = connect().then((fresh) => {
        const drop = () => {
          if (publisher === opening) publisher = null;
          fresh.end().catch(() => {});
        };
        fresh.on('error', drop);
        fresh.on('end', drop);
        return fresh;
      });
      opening.catch(() => {
        if (publisher === opening) publisher = null;
      });
      publisher = opening;
    }
    return publisher;
  }

  return {
    async publish(payload) {
      const parts = notifyPayloads(payload);
      const client = await publishingClient();
      // One statement is one transaction: the parts of an event are delivered together or not at all.
      await client.query('SELECT pg_notify($1, part) FROM unnest($2::text[]) AS part', [channel, parts]);
    },
    async start(deliver) {
      stopped = false;
      receive = notifyReassembler(deliver);
      await listen();
    },
    async stop() {
      stopped = true;
      receive = null;
      const pub = publisher;
      const listening = listener;
      publisher = null;
      listener = null;
      await Promise.all([listening?.end(), pub?.then((c) => c.end())].map((p) => p?.catch(() => {})));
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
      await client.query('SELECT pg_notify($1, part) FROM unnest($2::text[]) AS part', [
        channel,
        notifyPayloads(payload),
      ]);
    },
    async start(deliver) {
      const receive = notifyReassembler(deliver);
      unlisten = await client.listen(channel, (payload: string) => receive(payload));
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
