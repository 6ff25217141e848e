// The payout schedule actions as a signed-in finance person calls them, against the real database and sandbox:
// a recipient with a problem is named beside its row and nothing is requested; a clean schedule is previewed,
// then filed as one request; pausing, resuming and ending take effect at once and are audited.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, operationRequests, payoutSchedules } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { provideServices } from '@/lib/server/services';
import { trustRecipients } from '@/test/address-book';
import { addTestUser, createTestDatabase, type TestDatabase } from '@/test/db';
import { testSandboxOptions } from '@/test/sandbox';
import { provideTestServices } from '@/test/services';

const state = vi.hoisted(() => ({
  user: null as null | { id: string; email: string; name: string; role: string; mustChangePassword: boolean },
}));

vi.mock('@/lib/server/auth', () => ({ auth: async () => (state.user ? { user: state.user } : null) }));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const schedules = await import('./payout-schedules');

const dataDir = mkdtempSync(path.join(tmpdir(), 'payout-schedule-actions-'));
let t: TestDatabase;
let sandbox: Sandbox;
let wallet: SandboxCredentials['wallets'][number];

beforeAll(async () => {
  t = await createTestDatabase();
  sandbox = await createSandbox(testSandboxOptions(t.handle, dataDir, { seed: 'schedule-actions' }));
  await provideTestServices(t.handle, sandbox);
  [wallet] = (await sandbox.credentials()).wallets as [SandboxCredentials['wallets'][number]];
  // GOOD is an address book entry past its cooling-off (the destination policy).
  await trustRecipients(t.db, wallet.id, [GOOD.address]);
  const finance = await addTestUser(t.db, 'schedule-actions@example.com', 'finance');
  state.user = { ...finance, name: finance.email, mustChangePassword: false };
});

afterAll(async () => {
  provideServices(undefined);
  await sandbox.stop();
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const values = (recipients: Array<{ address: string; amount: string; asset: string }>) => ({
  walletId: wallet.id,
  name: 'Monthly contractors',
  source: 'master',
  cadence: 'monthly',
  dayOfWeek: '',
  dayOfMonth: '15',
  timeOfDay: '10:30',
  startsOn: '2026-01-01',
  recipients: recipients.map((r) => ({ ...r, reference: '', label: '' })),
});

const GOOD = { address: '0x2222222222222222222222222222222222222222', amount: '1.5', asset: 'USDC' };

describe('payout schedule actions', () => {
  it('names the recipients with problems and requests nothing', async () => {
    const checked = await schedules.previewPayoutScheduleAction(
      values([GOOD, { address: '0xnot-an-address', amount: '1', asset: 'USDC' }]),
    );
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.data.review).toBeNull();
    expect(checked.data.problems).toMatchObject({ problemRows: 1, total: 2, rows: [{ line: 2 }] });
    const requested = await schedules.requestPayoutScheduleAction(
      values([GOOD, { address: '0xnot-an-address', amount: '1', asset: 'USDC' }]),
    );
    expect(requested).toMatchObject({
      ok: false,
      error: '1 of 2 recipients have problems. Nothing was requested.',
    });
    expect(await t.db.select().from(operationRequests)).toHaveLength(0);
  });

  it('refuses a recipient outside the address book at its row (the destination policy)', async () => {
    const outside = '0x3333333333333333333333333333333333333333';
    const requested = await schedules.requestPayoutScheduleAction(
      values([GOOD, { address: outside, amount: '1', asset: 'USDC' }]),
    );
    expect(requested).toMatchObject({
      ok: false,
      error: '1 of 2 recipients have problems. Nothing was requested.',
    });
    const checked = await schedules.previewPayoutScheduleAction(
      values([GOOD, { address: outside, amount: '1', asset: 'USDC' }]),
    );
    if (!checked.ok || !checked.data.problems) throw new Error('no problems');
    expect(checked.data.problems.rows).toHaveLength(1);
    expect(checked.data.problems.rows[0]).toMatchObject({ line: 2 });
    expect(checked.data.problems.rows[0]!.problems.join(' ')).toContain(
      "is not in this wallet's address book: money goes only to address book entries past their cooling-off",
    );
    expect(await t.db.select().from(operationRequests)).toHaveLength(0);
  });

  it('previews the schedule, then files it as one request another person approves', async () => {
    const checked = await schedules.previewPayoutScheduleAction(values([GOOD]));
    if (!checked.ok || !checked.data.review) throw new Error('no review');
    expect(checked.data.review).toMatchObject({
      kind: 'payoutSchedule',
      cadence: 'On the 15th of every month at 10:30 UTC',
      totals: [{ symbol: 'USDC', amount: '1.5', rows: 1 }],
    });
    expect(checked.data.review.nextRuns).toHaveLength(3);
    const requested = await schedules.requestPayoutScheduleAction(values([GOOD]));
    if (!requested.ok) throw new Error(requested.error);
    const [request] = await t.db
      .select()
      .from(operationRequests)
      .where(eq(operationRequests.id, requested.data.id));
    expect(request).toMatchObject({ type: 'payoutSchedule', status: 'PENDING_APPROVAL' });
  });

  it('pauses, resumes and ends a schedule at once, each audited', async () => {
    const [row] = await t.db
      .insert(payoutSchedules)
      .values({
        walletId: wallet.id,
        name: 'Daily float',
        source: 'master',
        cadence: 'daily',
        timeOfDay: '08:00',
        startsOn: '2026-01-01',
        rows: [],
        status: 'active',
        ownerId: state.user!.id,
        ownerEmail: state.user!.email,
        nextRunAt: new Date(Date.now() + 60_000),
      })
      .returning();
    const scheduleId = row!.id;
    expect(await schedules.resumePayoutScheduleAction({ scheduleId })).toMatchObject({
      ok: false,
      status: 409,
    });
    expect(await schedules.pausePayoutScheduleAction({ scheduleId })).toMatchObject({
      ok: true,
      data: { status: 'paused' },
    });
    expect(await schedules.resumePayoutScheduleAction({ scheduleId })).toMatchObject({
      ok: true,
      data: { status: 'active' },
    });
    expect(await schedules.endPayoutScheduleAction({ scheduleId })).toMatchObject({
      ok: true,
      data: { status: 'ended', nextRunAt: null },
    });
    const audited = await t.db
      .select({ action: auditLog.action, outcome: auditLog.outcome })
      .from(auditLog)
      .where(eq(auditLog.target, scheduleId));
    expect(audited).toEqual([
      { action: 'payoutSchedule.resume', outcome: 'failed' },
      { action: 'payoutSchedule.pause', outcome: 'success' },
      { action: 'payoutSchedule.resume', outcome: 'success' },
      { action: 'payoutSchedule.end', outcome: 'success' },
    ]);
  });
});
