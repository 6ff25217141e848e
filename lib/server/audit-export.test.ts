// The audit log's CSV export: a day the calendar does not have is refused with a sentence, never dropped (which
// would widen the file to every entry); a good period bounds the file.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { appendAudit } from './audit';

let t: TestDatabase;

vi.mock('./guard', () => ({
  authorize: async () => ({
    ok: true,
    actor: { id: 'u', email: 'viewer@example.com', role: 'viewer', requestId: 'r' },
  }),
  audit: async () => undefined,
}));
vi.mock('./runtime', () => ({ getDb: async () => t.db }));

const { GET } = await import('@/app/(console)/audit/export.csv/route');

beforeAll(async () => {
  t = await createTestDatabase();
  for (const action of ['withdraw.request', 'withdraw.approve', 'policy.edit'])
    await appendAudit(t.db, {
      actorId: null,
      actorEmail: 'finance@example.com',
      role: 'finance',
      action,
      target: null,
      outcome: 'success',
    });
});
afterAll(async () => {
  await t.close();
});

const exportOf = (query: string) =>
  GET(new Request(`http://console.test/audit/export.csv${query}`), { params: Promise.resolve({}) });
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('the audit export', () => {
  it.each([
    [
      'a month 13',
      '?from=2026-13-45',
      { from: 'The From date is not a day of the calendar: write it YYYY-MM-DD.' },
    ],
    [
      '30 February',
      '?to=2026-02-30',
      { to: 'The To date is not a day of the calendar: write it YYYY-MM-DD.' },
    ],
    [
      'words',
      '?from=yesterday',
      { from: 'The From date is not a day of the calendar: write it YYYY-MM-DD.' },
    ],
    ['a reversed period', '?from=2026-03-02&to=2026-03-01', { to: 'The To date is before the From date.' }],
  ])('refuses %s with 400 and a sentence naming the field', async (_, query, fieldErrors) => {
    const response = await exportOf(query);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      statusCode: 400,
      message: Object.values(fieldErrors).join(' '),
      fieldErrors,
    });
  });

  it('bounds the file by a good period', async () => {
    const today = await exportOf(`?from=${day(0)}&to=${day(0)}`);
    expect(today.status).toBe(200);
    expect((await today.text()).trim().split('\r\n')).toHaveLength(4);
    const tomorrow = await exportOf(`?from=${day(1)}`);
    expect(tomorrow.status).toBe(200);
    expect((await tomorrow.text()).trim().split('\r\n')).toHaveLength(1);
  });
});
