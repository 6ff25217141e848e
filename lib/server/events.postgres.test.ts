// The event bus over a real PostgreSQL server: two buses on their own connections, as two console
// instances are. Runs only when TEST_DATABASE_URL names a server (vitest.config.ts leaves it out otherwise).
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type CustodyEvent,
  createEventBus,
  type EventBus,
  NOTIFY_PAYLOAD_LIMIT_BYTES,
  notifyPayloads,
  postgresTransport,
} from './events';

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set: this file runs against PostgreSQL only');

const databaseName = `console_events_${randomBytes(6).toString('hex')}`;
const databaseUrl = (() => {
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
})();

async function sql<T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await admin.end();
});

afterAll(async () => {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  await admin.end();
});

function sampleEvent(overrides: Partial<CustodyEvent> = {}): CustodyEvent {
  return {
    id: `evt-${randomBytes(4).toString('hex')}`,
    walletId: 'wallet-1',
    event: 'deposit.success',
    transactionId: 'tx-1',
    status: 'SUCCESS',
    type: 'DEPOSIT',
    reference: 'ref-1',
    receivedAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Backends currently listening on `channel` (their last statement was the LISTEN). */
async function listenerPids(channel: string): Promise<number[]> {
  const rows = await sql<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query = $2 ORDER BY pid',
    [databaseName, `LISTEN ${channel}`],
  );
  return rows.map((r) => r.pid);
}

describe('event bus over PostgreSQL LISTEN/NOTIFY (two instances)', () => {
  const buses: EventBus[] = [];
  let channel = '';

  function instance(): EventBus {
    const bus = createEventBus(postgresTransport(databaseUrl, channel, { reconnectMs: 50 }));
    buses.push(bus);
    return bus;
  }

  /** Subscribes and waits until the bus's listening connection is registered with the server. */
  async function listening(bus: EventBus, seen: CustodyEvent[]): Promise<void> {
    const before = (await listenerPids(channel)).length;
    bus.subscribe((e) => {
      seen.push(e);
    });
    await vi.waitFor(async () => expect((await listenerPids(channel)).length).toBe(before + 1), {
      timeout: 10_000,
    });
  }

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
  });

  it('delivers an event published on one instance to subscribers on both', async () => {
    channel = `events_${randomBytes(4).toString('hex')}`;
    const a = instance();
    const b = instance();
    const seenA: CustodyEvent[] = [];
    const seenB: CustodyEvent[] = [];
    await listening(a, seenA);
    await listening(b, seenB);

    const event = sampleEvent();
    await a.publish(event);
    await vi.waitFor(() => expect(seenB).toEqual([event]));
    await vi.waitFor(() => expect(seenA).toEqual([event]));
  });

  it('listens again after the server drops the listening connection', async () => {
    channel = `events_${randomBytes(4).toString('hex')}`;
    const a = instance();
    const b = instance();
    const seenB: CustodyEvent[] = [];
    await listening(b, seenB);
    const [dropped] = await listenerPids(channel);
    expect(dropped).toBeTypeOf('number');

    const terminated = await sql<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [dropped]);
    expect(terminated[0]?.ok).toBe(true);
    // A new backend listens on the channel in place of the terminated one.
    await vi.waitFor(
      async () => {
        const pids = await listenerPids(channel);
        expect(pids).toHaveLength(1);
        expect(pids[0]).not.toBe(dropped);
      },
      { timeout: 10_000, interval: 50 },
    );

    const event = sampleEvent({ event: 'withdraw.success', type: 'WITHDRAW' });
    await a.publish(event);
    await vi.waitFor(() => expect(seenB).toEqual([event]));
  });

  it('publishes again after the server drops the publishing connection', async () => {
    channel = `events_${randomBytes(4).toString('hex')}`;
    const a = instance();
    const b = instance();
    const seenB: CustodyEvent[] = [];
    await listening(b, seenB);
    const first = sampleEvent();
    await a.publish(first);
    await vi.waitFor(() => expect(seenB).toEqual([first]));

    const publishers = await sql<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'SELECT pg_notify%'`,
      [databaseName],
    );
    expect(publishers).toHaveLength(1);
    await sql('SELECT pg_terminate_backend($1)', [publishers[0]?.pid]);

    // The dropped connection is noticed (error event) and replaced on the next publish.
    const second = sampleEvent();
    await vi.waitFor(async () => {
      await a.publish(second);
    });
    await vi.waitFor(() => expect(seenB.map((e) => e.id)).toContain(second.id));
  });

  it('carries an event larger than the NOTIFY payload limit intact', async () => {
    channel = `events_${randomBytes(4).toString('hex')}`;
    const a = instance();
    const b = instance();
    const seenB: CustodyEvent[] = [];
    await listening(b, seenB);

    // Multi-byte characters: 10,000 of them are 30,000 bytes, several notifications' worth.
    const large = sampleEvent({ reference: '€'.repeat(10_000) });
    const parts = notifyPayloads(JSON.stringify(large));
    expect(parts.length).toBeGreaterThan(3);
    for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(NOTIFY_PAYLOAD_LIMIT_BYTES);

    const small = sampleEvent();
    await a.publish(large);
    await a.publish(small);
    await vi.waitFor(() => expect(seenB.map((e) => e.id)).toEqual([large.id, small.id]));
    expect(seenB[0]).toEqual(large);
  });

  it('the server itself refuses a payload at the limit, which is why large events are split', async () => {
    await expect(
      sql('SELECT pg_notify($1, $2)', ['events_limit', 'x'.repeat(NOTIFY_PAYLOAD_LIMIT_BYTES + 1)]),
    ).rejects.toThrow(/payload string too long/);
    await sql('SELECT pg_notify($1, $2)', ['events_limit', 'x'.repeat(NOTIFY_PAYLOAD_LIMIT_BYTES)]);
  });
});
