// The endpoint's health from the webhook log: tries per window (every try of an entry but the last failed), the
// last success, the failure streak since it, and the hourly trend ending now.
import { describe, expect, it } from 'vitest';
import type { WebhookLog } from '@/lib/custody/schemas';
import { endpointHealth } from './webhook-health';

const NOW = new Date('2026-11-20T12:00:00.000Z');
let seq = 0;

/** An entry last updated `minutesAgo` before NOW. */
function entry(minutesAgo: number, status: WebhookLog['status'], attempts = 1): WebhookLog {
  seq += 1;
  const at = new Date(NOW.getTime() - minutesAgo * 60_000).toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    event: 'withdraw.success',
    url: 'https://console.example/api/webhooks/custody',
    attempts,
    status,
    response: status === 'success' ? 'OK' : { status: 502, text: 'Bad Gateway' },
    reference: `tx-${seq}`,
    payload: { id: `tx-${seq}`, status: 'SUCCESS', type: 'WITHDRAW' } as WebhookLog['payload'],
    createdAt: at,
    updatedAt: at,
  };
}

describe('endpointHealth', () => {
  it('counts every try in its window: the retries before a success failed', () => {
    const health = endpointHealth(
      [entry(10, 'success', 3), entry(30, 'failed', 4), entry(120, 'success'), entry(25 * 60, 'failed', 2)],
      NOW,
    );
    expect(health.lastHour).toEqual({ delivered: 1, failed: 2 + 4 });
    expect(health.lastDay).toEqual({ delivered: 2, failed: 6 });
    expect(health.asOf).toBe(NOW.toISOString());
  });

  it('names the last success and counts the failed tries after it', () => {
    const lastGood = entry(50, 'success', 2);
    const health = endpointHealth(
      [entry(5, 'failed', 4), entry(20, 'failed', 1), lastGood, entry(70, 'failed')],
      NOW,
    );
    expect(health.lastSuccessAt).toBe(lastGood.updatedAt);
    expect(health.failureStreak).toBe(5);
  });

  it('has no streak when the newest try was delivered, and ignores entries still queued', () => {
    const health = endpointHealth([entry(1, 'pending', 0), entry(3, 'success'), entry(9, 'failed', 3)], NOW);
    expect(health.failureStreak).toBe(0);
    expect(health.lastHour).toEqual({ delivered: 1, failed: 3 });
  });

  it('puts each try in its hour, oldest hour first, 24 of them', () => {
    const health = endpointHealth(
      [entry(5, 'success'), entry(65, 'failed', 2), entry(23 * 60 + 30, 'success')],
      NOW,
    );
    expect(health.hourly).toHaveLength(24);
    expect(health.hourly[23]).toEqual({ delivered: 1, failed: 0 });
    expect(health.hourly[22]).toEqual({ delivered: 0, failed: 2 });
    expect(health.hourly[0]).toEqual({ delivered: 1, failed: 0 });
    const total = health.hourly.reduce((sum, h) => sum + h.delivered + h.failed, 0);
    expect(total).toBe(health.lastDay.delivered + health.lastDay.failed);
  });

  it('an empty log: nothing counted, no success, no streak', () => {
    const health = endpointHealth([], NOW);
    expect(health).toMatchObject({
      lastHour: { delivered: 0, failed: 0 },
      lastDay: { delivered: 0, failed: 0 },
      lastSuccessAt: null,
      failureStreak: 0,
    });
  });
});
