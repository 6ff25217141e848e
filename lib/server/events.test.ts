import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type CustodyEvent,
  createEventBus,
  type EventBus,
  inProcessTransport,
  onCustodyEvent,
  pgliteTransport,
  publishCustodyEvent,
  setProcessEventBus,
} from './events';

function sampleEvent(overrides: Partial<CustodyEvent> = {}): CustodyEvent {
  return {
    id: 'evt-1',
    walletId: 'wallet-1',
    event: 'withdraw.success',
    transactionId: 'tx-1',
    status: 'SUCCESS',
    type: 'WITHDRAW',
    reference: 'ref-1',
    receivedAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

function nextEvent(bus: EventBus): Promise<CustodyEvent> {
  return new Promise((resolve) => {
    const off = bus.subscribe((e) => {
      off();
      resolve(e);
    });
  });
}

describe('event bus (in-process)', () => {
  let bus: EventBus | undefined;
  afterEach(async () => {
    await bus?.close();
    bus = undefined;
  });

  it('delivers a published event to every subscriber', async () => {
    bus = createEventBus(inProcessTransport());
    const a = vi.fn();
    const b = vi.fn();
    bus.subscribe(a);
    bus.subscribe(b);
    await bus.publish(sampleEvent());
    await vi.waitFor(() => expect(b).toHaveBeenCalledTimes(1));
    expect(a).toHaveBeenCalledWith(sampleEvent());
  });

  it('stops delivering after unsubscribe', async () => {
    bus = createEventBus(inProcessTransport());
    const a = vi.fn();
    const off = bus.subscribe(a);
    const witness = nextEvent(bus);
    off();
    await bus.publish(sampleEvent());
    await witness;
    expect(a).not.toHaveBeenCalled();
    expect(bus.size()).toBe(0);
  });

  it('keeps delivering to others when one listener throws or rejects', async () => {
    bus = createEventBus(inProcessTransport());
    bus.subscribe(() => {
      throw new Error('boom');
    });
    bus.subscribe(async () => {
      throw new Error('async boom');
    });
    const received = nextEvent(bus);
    await bus.publish(sampleEvent({ id: 'evt-2' }));
    expect((await received).id).toBe('evt-2');
  });
});

describe('event bus over NOTIFY (PGlite, same path as PostgreSQL)', () => {
  it('serializes through the channel and ignores malformed notifications', async () => {
    const client = await PGlite.create('memory://');
    const bus = createEventBus(pgliteTransport(client, 'test_events'));
    const seen: CustodyEvent[] = [];
    bus.subscribe((e) => {
      seen.push(e);
    });
    // A notification that is not an event (another writer on the channel) must be ignored.
    await client.query(`SELECT pg_notify('test_events', 'not json')`);
    await client.query(`SELECT pg_notify('test_events', '{"id":1}')`);
    await bus.publish(sampleEvent({ id: 'evt-notify' }));
    await vi.waitFor(() => expect(seen.map((e) => e.id)).toEqual(['evt-notify']));
    await bus.close();
    await client.close();
  });
});

describe('process bus', () => {
  afterEach(() => setProcessEventBus(undefined));

  it('onCustodyEvent receives what publishCustodyEvent sends and unsubscribes', async () => {
    setProcessEventBus(createEventBus(inProcessTransport()));
    const got = new Promise<CustodyEvent>((resolve) => {
      const off = onCustodyEvent((e) => {
        off();
        resolve(e);
      });
    });
    await publishCustodyEvent(sampleEvent({ id: 'evt-process' }));
    expect((await got).id).toBe('evt-process');
  });
});
