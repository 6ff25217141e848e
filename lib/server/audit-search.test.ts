import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditInputPairs, describeAuditAction } from '@/lib/audit-actions';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { appendAudit, eachAuditEntry, listAudit } from './audit';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  const entry = (actorEmail: string, action: string, target: string | null) =>
    appendAudit(t.db, { actorId: null, actorEmail, role: 'finance', action, target, outcome: 'success' });
  await entry('finance2@example.com', 'withdraw.approve', 'req-0001');
  await entry('finance@example.com', 'withdraw.request', 'req-0001');
  await entry('admin@example.com', 'policy.edit', 'swap');
  await entry('admin@example.com', 'user.add', 'New_Person@example.com');
  await entry('viewer@example.com', 'auth.sign_in', null);
});
afterAll(async () => {
  await t.close();
});

const actionsOf = async (filter: Parameters<typeof listAudit>[1]) =>
  (await listAudit(t.db, filter)).rows.map((r) => r.action);

describe('audit search', () => {
  it('finds any part of the actor, case-insensitively', async () => {
    expect(await actionsOf({ q: 'FINANCE2' })).toEqual(['withdraw.approve']);
    expect(await actionsOf({ actor: 'finance' })).toEqual(['withdraw.request', 'withdraw.approve']);
  });

  it('finds actions by their words as well as their codes', async () => {
    expect(await actionsOf({ q: 'approval' })).toEqual([
      'policy.edit',
      'withdraw.request',
      'withdraw.approve',
    ]);
    expect(await actionsOf({ action: 'withdrawal' })).toEqual(['withdraw.request', 'withdraw.approve']);
    expect(await actionsOf({ action: 'sign_in' })).toEqual(['auth.sign_in']);
  });

  it('finds any part of the target and takes pattern characters literally', async () => {
    expect(await actionsOf({ q: 'req-00' })).toEqual(['withdraw.request', 'withdraw.approve']);
    expect(await actionsOf({ q: 'new_person' })).toEqual(['user.add']);
    expect(await actionsOf({ q: '%' })).toEqual([]);
  });

  it('reads every matching entry for an export, newest first, across batches', async () => {
    const all = [];
    for await (const row of eachAuditEntry(t.db, {}, 2)) all.push(row.action);
    expect(all).toEqual(['auth.sign_in', 'user.add', 'policy.edit', 'withdraw.request', 'withdraw.approve']);
    const some = [];
    for await (const row of eachAuditEntry(t.db, { q: 'admin' }, 1)) some.push(row.action);
    expect(some).toEqual(['user.add', 'policy.edit']);
  });
});

describe('audit entries in words', () => {
  it('names known actions and leaves unknown codes as they are', () => {
    expect(describeAuditAction('withdraw.approve')).toEqual({
      label: 'Approved a withdrawal',
      area: 'Approvals',
    });
    expect(describeAuditAction('something.new')).toEqual({ label: 'something.new', area: 'Other' });
  });

  it('flattens the input into readable pairs', () => {
    expect(auditInputPairs({})).toEqual([]);
    expect(
      auditInputPairs({ walletId: 'w1', rule: { min: '10', assets: ['USDC', 'USDT'] }, note: null }),
    ).toEqual([
      ['walletId', 'w1'],
      ['rule.min', '10'],
      ['rule.assets', 'USDC, USDT'],
      ['note', '—'],
    ]);
  });
});
