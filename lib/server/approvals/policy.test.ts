import { describe, expect, it } from 'vitest';
import { hashPayload, referenceFor } from './hash';
import {
  DEFAULT_EXPIRY_SECONDS,
  defaultPolicy,
  expiryFor,
  highestApprovals,
  isExpired,
  requiredApprovals,
  timeLeft,
} from './policy';

describe('approval policy arithmetic', () => {
  const policy = { approvals: 1, thresholdUsd: 10_000, expirySeconds: 3600 };

  it.each([
    [0, 1],
    [9_999.99, 1],
    [10_000, 1],
    [10_000.01, 2],
    [1_000_000, 2],
  ])('an amount of %d USD needs %d approver(s) under a 10,000 threshold', (usd, needed) => {
    expect(requiredApprovals(policy, usd)).toBe(needed);
  });

  it('counts an unknown USD value as above the threshold', () => {
    expect(requiredApprovals(policy, null)).toBe(2);
  });

  it('adds nothing without a threshold, even for an unknown value', () => {
    expect(requiredApprovals({ ...policy, thresholdUsd: null }, null)).toBe(1);
    expect(requiredApprovals({ ...policy, approvals: 3, thresholdUsd: null }, 5)).toBe(3);
  });

  it('never needs fewer than one approver', () => {
    expect(requiredApprovals({ ...policy, approvals: 0 }, 1)).toBe(1);
    expect(requiredApprovals({ ...policy, approvals: -2 }, 20_000)).toBe(2);
  });

  it('expires after the policy time, clamped to at least 5 seconds', () => {
    const created = new Date('2026-01-01T00:00:00Z');
    expect(expiryFor(policy, created).toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(expiryFor({ ...policy, expirySeconds: 0 }, created).toISOString()).toBe(
      '2026-01-01T00:00:05.000Z',
    );
    const expires = expiryFor(policy, created);
    expect(isExpired(expires, new Date('2026-01-01T00:59:59Z'))).toBe(false);
    expect(isExpired(expires, new Date('2026-01-01T01:00:00Z'))).toBe(true);
    expect(timeLeft(expires, new Date('2026-01-01T00:30:00Z'))).toBe(30 * 60 * 1000);
    expect(timeLeft(expires, new Date('2026-01-02T00:00:00Z'))).toBe(0);
  });

  it('asks the most a policy can ask of a request it cannot value', () => {
    const plain = { approvals: 1, thresholdUsd: null, expirySeconds: 3600 };
    // With a threshold: its count above the threshold, whatever other kinds ask.
    expect(highestApprovals(policy, [policy, { ...plain, approvals: 4 }])).toBe(2);
    expect(highestApprovals({ ...policy, approvals: 3 }, [policy])).toBe(4);
    // Without one: the most any kind asks for its largest amounts, at least one more than its own.
    expect(highestApprovals(plain, [plain, policy])).toBe(2);
    expect(highestApprovals(plain, [plain, { ...policy, approvals: 3 }, { ...plain, approvals: 2 }])).toBe(4);
    expect(highestApprovals({ ...plain, approvals: 5 }, [plain, policy])).toBe(6);
  });

  it('defaults to 24 hours and one approver', () => {
    expect(defaultPolicy('withdraw')).toMatchObject({ approvals: 1, expirySeconds: DEFAULT_EXPIRY_SECONDS });
    expect(defaultPolicy('swap').expirySeconds).toBe(24 * 60 * 60);
  });
});

describe('payload hash and references', () => {
  it('hashes canonical JSON: key order does not matter, any value change does', () => {
    const a = hashPayload({ items: [{ amount: '1', address: '0xab' }], source: { kind: 'master' } });
    const b = hashPayload({ source: { kind: 'master' }, items: [{ address: '0xab', amount: '1' }] });
    const c = hashPayload({ source: { kind: 'master' }, items: [{ address: '0xab', amount: '1.0' }] });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  it('derives references from the request id and item index', () => {
    expect(referenceFor('0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0', 3)).toBe('req-0f1e2d3c4b5a-3');
  });
});
