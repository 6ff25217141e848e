import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type CustodyEvent,
  createEventBus,
  type EventBus,
  inProcessTransport,
  NOTIFY_PAYLOAD_LIMIT_BYTES,
  notifyPayloads,
  notifyReassembler,
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
  it('serializes through the channel, carries large events and ignores malformed notifications', async () => {
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
    // Above the 8000-byte limit of one notification: sent in parts, delivered whole.
    const large = sampleEvent({ id: 'evt-large', reference: '€'.repeat(5_000) });
    await bus.publish(large);
    await vi.waitFor(() => expect(seen.map((e) => e.id)).toEqual(['evt-notify', 'evt-large']));
    expect(seen[1]).toEqual(large);
    await bus.close();
    await client.close();
  });
});

describe('events larger than a NOTIFY payload', () => {
  it('sends a small event as it is and a large one as parts within the limit', () => {
    const small = JSON.stringify(sampleEvent());
    expect(notifyPayloads(small)).toEqual([small]);
    const large = JSON.stringify(sampleEvent({ reference: 'ü'.repeat(9_000) }));
    const parts = notifyPayloads(large);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(NOTIFY_PAYLOAD_LIMIT_BYTES);
  });

  it('reassembles interleaved, reordered parts and ignores repeats and strangers', () => {
    const got: string[] = [];
    const receive = notifyReassembler((payload) => got.push(payload));
    const one = JSON.stringify(sampleEvent({ id: 'one', reference: 'a'.repeat(20_000) }));
    const two = JSON.stringify(sampleEvent({ id: 'two', reference: 'ß'.repeat(20_000) }));
    const partsOne = notifyPayloads(one);
    const partsTwo = notifyPayloads(two);
    receive(partsTwo[2]!);
    receive(partsOne[0]!);
    receive(partsOne[0]!);
    receive('part:not-a-part');
    receive(partsTwo[0]!);
    for (const part of partsOne.slice(1).reverse()) receive(part);
    expect(got).toEqual([one]);
    for (const part of partsTwo) receive(part);
    receive('{"plain":true}');
    expect(got).toEqual([one, two, '{"plain":true}']);
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
