// Webhook log entries read as deliveries: grouped per transaction and event, resolved when a later send was
// delivered, attempts in order, and "first sent" / "last attempt" from the right entries and fields.
import { describe, expect, it } from 'vitest';
import type { WebhookLog } from '@/lib/custody/schemas';
import { groupDeliveries, matchesStatus } from './webhook-groups';

const TX_A = '0b7f3b0c-1111-4c2d-8e9f-00000000000a';
const TX_B = '0b7f3b0c-1111-4c2d-8e9f-00000000000b';
let seq = 0;

function entry(
  over: Partial<WebhookLog> & { tx?: string; createdAt: string; updatedAt?: string },
): WebhookLog {
  const { tx = TX_A, ...rest } = over;
  seq += 1;
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    event: 'withdraw.success',
    url: 'https://console.example/api/webhooks/custody',
    attempts: 1,
    status: 'success',
    response: 'OK',
    reference: tx,
    payload: { id: tx, status: 'SUCCESS', type: 'WITHDRAW' } as WebhookLog['payload'],
    updatedAt: over.updatedAt ?? over.createdAt,
    ...rest,
  };
}

const BAD_GATEWAY = { status: 502, text: 'Bad Gateway' };

describe('groupDeliveries', () => {
  it('groups entries per transaction and event, oldest entry first, newest group first', () => {
    const resend = entry({ createdAt: '2026-11-20T10:05:00.000Z', updatedAt: '2026-11-20T10:05:01.000Z' });
    const original = entry({
      createdAt: '2026-11-20T10:00:00.000Z',
      updatedAt: '2026-11-20T10:00:08.000Z',
      status: 'failed',
      attempts: 4,
      response: BAD_GATEWAY,
    });
    const otherEvent = entry({ event: 'deposit.success', createdAt: '2026-11-20T09:00:00.000Z' });
    const otherTx = entry({ tx: TX_B, createdAt: '2026-11-20T11:00:00.000Z' });
    // #22 answers newest first.
    const groups = groupDeliveries([otherTx, resend, original, otherEvent]);

    expect(groups.map((g) => [g.transactionId, g.event])).toEqual([
      [TX_B, 'withdraw.success'],
      [TX_A, 'withdraw.success'],
      [TX_A, 'deposit.success'],
    ]);
    const a = groups[1]!;
    expect(a.entries.map((e) => e.id)).toEqual([original.id, resend.id]);
    expect(a.latest.id).toBe(resend.id);
    // First sent is the first entry's createdAt; last attempt the last entry's updatedAt.
    expect(a.firstSentAt).toBe('2026-11-20T10:00:00.000Z');
    expect(a.lastAttemptAt).toBe('2026-11-20T10:05:01.000Z');
    expect(groups[2]!.entries).toHaveLength(1);
  });

  it('a failure later delivered is resolved and needs nobody; a latest failure needs attention', () => {
    const groups = groupDeliveries([
      entry({ createdAt: '2026-11-20T10:00:00.000Z', status: 'failed', attempts: 4, response: BAD_GATEWAY }),
      entry({ createdAt: '2026-11-20T10:05:00.000Z', status: 'success' }),
      entry({ tx: TX_B, createdAt: '2026-11-20T10:00:00.000Z', status: 'success' }),
      entry({ tx: TX_B, createdAt: '2026-11-20T10:09:00.000Z', status: 'failed', response: BAD_GATEWAY }),
      entry({ tx: TX_B, event: 'deposit.success', createdAt: '2026-11-20T08:00:00.000Z' }),
    ]);
    const byKey = Object.fromEntries(groups.map((g) => [`${g.transactionId.slice(-1)} ${g.event}`, g]));
    const resolved = byKey['a withdraw.success']!;
    const failedAgain = byKey['b withdraw.success']!;
    const delivered = byKey['b deposit.success']!;

    expect([resolved.state, resolved.needsAttention]).toEqual(['resolved', false]);
    expect([failedAgain.state, failedAgain.needsAttention]).toEqual(['failed', true]);
    expect([delivered.state, delivered.needsAttention]).toEqual(['delivered', false]);

    expect(groups.filter((g) => matchesStatus(g, 'failed'))).toEqual([failedAgain]);
    expect(groups.filter((g) => matchesStatus(g, 'resolved'))).toEqual([resolved]);
    expect(
      groups
        .filter((g) => matchesStatus(g, 'success'))
        .map((g) => g.id)
        .sort(),
    ).toEqual([resolved.id, delivered.id].sort());
    expect(groups.filter((g) => matchesStatus(g, undefined))).toHaveLength(3);
  });

  it('lists every attempt in order: earlier tries failed, the last has the entry status and answer', () => {
    const [group] = groupDeliveries([
      entry({
        createdAt: '2026-11-20T10:05:00.000Z',
        updatedAt: '2026-11-20T10:05:03.000Z',
        attempts: 2,
        status: 'success',
        response: 'OK',
      }),
      entry({
        createdAt: '2026-11-20T10:00:00.000Z',
        updatedAt: '2026-11-20T10:00:08.000Z',
        attempts: 4,
        status: 'failed',
        response: BAD_GATEWAY,
      }),
    ]);
    expect(group!.attempts).toEqual([
      {
        number: 1,
        entry: 1,
        tryOfEntry: 1,
        triesOfEntry: 4,
        outcome: 'failed',
        at: '2026-11-20T10:00:00.000Z',
        response: null,
      },
      { number: 2, entry: 1, tryOfEntry: 2, triesOfEntry: 4, outcome: 'failed', at: null, response: null },
      { number: 3, entry: 1, tryOfEntry: 3, triesOfEntry: 4, outcome: 'failed', at: null, response: null },
      {
        number: 4,
        entry: 1,
        tryOfEntry: 4,
        triesOfEntry: 4,
        outcome: 'failed',
        at: '2026-11-20T10:00:08.000Z',
        response: BAD_GATEWAY,
      },
      {
        number: 5,
        entry: 2,
        tryOfEntry: 1,
        triesOfEntry: 2,
        outcome: 'failed',
        at: '2026-11-20T10:05:00.000Z',
        response: null,
      },
      {
        number: 6,
        entry: 2,
        tryOfEntry: 2,
        triesOfEntry: 2,
        outcome: 'delivered',
        at: '2026-11-20T10:05:03.000Z',
        response: 'OK',
      },
    ]);
  });

  it('keeps the given order for entries stamped alike, counts a repeated entry once, and handles nothing', () => {
    const first = entry({ createdAt: '2026-11-20T10:00:00.000Z', status: 'failed', response: BAD_GATEWAY });
    const second = entry({ createdAt: '2026-11-20T10:00:00.000Z', status: 'success' });
    const [group] = groupDeliveries([first, second, first]);
    expect(group!.entries.map((e) => e.id)).toEqual([first.id, second.id]);
    expect(group!.state).toBe('resolved');
    expect(group!.attempts).toHaveLength(2);
    expect(groupDeliveries([])).toEqual([]);
  });

  it('a latest entry with a status the console does not know is pending, not failed', () => {
    const [group] = groupDeliveries([
      entry({ createdAt: '2026-11-20T10:00:00.000Z', status: 'failed', response: BAD_GATEWAY }),
      entry({ createdAt: '2026-11-20T10:01:00.000Z', status: 'queued', attempts: 0, response: '' }),
    ]);
    expect(group!.state).toBe('pending');
    expect(group!.needsAttention).toBe(false);
    // Not tried yet: the queued entry adds no attempt.
    expect(group!.attempts.map((a) => a.outcome)).toEqual(['failed']);
    const [sending] = groupDeliveries([
      entry({ createdAt: '2026-11-20T10:00:00.000Z', status: 'sending', attempts: 1, response: '' }),
    ]);
    expect(sending!.attempts.map((a) => a.outcome)).toEqual(['unknown']);
  });
});
