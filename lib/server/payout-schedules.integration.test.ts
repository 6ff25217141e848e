// Scheduled payouts through the approval engine against the embedded sandbox: a weekly schedule is approved
// once by a second person; at its time (the test moves the clock) it creates one ordinary payout request in
// the owner's name that needs approval like any other, once per due time, within the freeze; a missed week
// runs once, a disabled owner's run records why nothing was created, and a one-off schedule ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationRequests, payoutScheduleRuns, payoutSchedules, users } from '@/lib/db/schema';
import type { Role } from '@/lib/roles';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { trustRecipients } from '@/test/address-book';
import { addTestUser, createTestDatabase, type TestDatabase } from '@/test/db';
import { sandboxConnection, testSandboxOptions } from '@/test/sandbox';
import { createApprovalEngine, type EngineActor } from './approvals/engine';
import {
  changeScheduleStatus,
  finishInterruptedRuns,
  listPayoutSchedules,
  listSchedulesAwaitingApproval,
  runDueSchedules,
} from './payout-schedules';

const dataDir = mkdtempSync(path.join(tmpdir(), 'payout-schedules-'));
let database: TestDatabase;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let wallet: SandboxCredentials['wallets'][number];
let usdc: { id: string; decimals: number; symbol: string };
let owner: EngineActor;
let approver: EngineActor;
let admin: EngineActor;
let support: EngineActor;

const MINUTE = 60_000;
const WEEK = 7 * 24 * 60 * MINUTE;

const connectionFor = async (walletId: string) => sandboxConnection(sandbox, creds, walletId);
const engine = () => createApprovalEngine({ db: database.db, connectionFor });
const addUser = (email: string, role: Role) => addTestUser(database.db, email, role);

/** A schedule's payload as the form's action files it: two payments, one with its own reference. */
function schedulePayload(name: string, timing: Record<string, unknown>, reference = 'rent') {
  return {
    walletId: wallet.id,
    name,
    dayOfWeek: null,
    dayOfMonth: null,
    timeOfDay: '09:00',
    startsOn: new Date().toISOString().slice(0, 10),
    ...timing,
    payout: {
      source: { kind: 'master' },
      fileName: name,
      items: [
        {
          line: 1,
          assetId: usdc.id,
          symbol: usdc.symbol,
          decimals: usdc.decimals,
          address: '0x00000000000000000000000000000000000a11ce',
          amount: '0.01',
          reference,
          label: 'Office rent',
        },
        {
          line: 2,
          assetId: usdc.id,
          symbol: usdc.symbol,
          decimals: usdc.decimals,
          address: '0x0000000000000000000000000000000000000b0b',
          amount: '0.02',
        },
      ],
    },
  };
}

/** Requested (by the owner unless said), approved by another person: the schedule row the console keeps. */
async function approvedSchedule(
  name: string,
  timing: Record<string, unknown>,
  { reference, requester = owner }: { reference?: string; requester?: EngineActor } = {},
) {
  const e = engine();
  const created = await e.create(
    requester,
    'payoutSchedule',
    wallet.id,
    schedulePayload(name, timing, reference),
  );
  if (!created.ok) throw new Error(created.error);
  const approved = await e.approve(approver, created.data.id);
  if (!approved.ok) throw new Error(approved.error);
  const [row] = await database.db
    .select()
    .from(payoutSchedules)
    .where(eq(payoutSchedules.approvedRequestId, created.data.id));
  return row!;
}

const runsOf = (scheduleId: string) =>
  database.db.select().from(payoutScheduleRuns).where(eq(payoutScheduleRuns.scheduleId, scheduleId));

const scheduleOf = async (id: string) =>
  (await database.db.select().from(payoutSchedules).where(eq(payoutSchedules.id, id)))[0]!;

const requestOf = async (id: string) =>
  (await database.db.select().from(operationRequests).where(eq(operationRequests.id, id)))[0]!;

const run = (now: Date) => runDueSchedules({ db: database.db, engine: engine(), now });

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await createSandbox(testSandboxOptions(database.handle, dataDir, { seed: 'payout-schedules' }));
  creds = await sandbox.credentials();
  wallet = creds.wallets[0]!;
  const asset = wallet.assets.find((a) => a.symbol === 'USDC')!;
  usdc = { id: asset.id, decimals: asset.decimals, symbol: asset.symbol };
  // The schedules pay address book entries past their cooling-off (the destination policy).
  await trustRecipients(database.db, wallet.id, [
    '0x00000000000000000000000000000000000a11ce',
    '0x0000000000000000000000000000000000000b0b',
  ]);
  owner = await addUser('schedule-owner@example.com', 'finance');
  approver = await addUser('schedule-approver@example.com', 'finance');
  admin = await addUser('schedule-admin@example.com', 'admin');
  support = await addUser('schedule-support@example.com', 'support');
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('payout schedules', () => {
  it('a schedule exists only once another person approves it; support cannot ask for one', async () => {
    const e = engine();
    const refused = await e.create(
      support,
      'payoutSchedule',
      wallet.id,
      schedulePayload('Nope', { cadence: 'daily' }),
    );
    expect(refused).toMatchObject({ ok: false, status: 403 });
    const created = await e.create(
      owner,
      'payoutSchedule',
      wallet.id,
      schedulePayload('Daily', { cadence: 'daily' }),
    );
    if (!created.ok) throw new Error(created.error);
    expect(created.data.summary).toBe('Payout schedule “Daily”: Every day at 09:00 UTC, 0.03 USDC per run');
    const view = await e.view(created.data.id);
    expect(view?.request.review).toMatchObject({
      kind: 'payoutSchedule',
      cadence: 'Every day at 09:00 UTC',
      totals: [{ symbol: 'USDC', amount: '0.03', rows: 2 }],
    });
    expect((view?.request.review as { nextRuns?: string[] } | undefined)?.nextRuns).toHaveLength(3);
    expect((await e.approve(owner, created.data.id)).ok).toBe(false);
    expect(await database.db.select().from(payoutSchedules)).toHaveLength(0);
    // Until then its wallet's schedules page lists it as waiting for approval, linking to its request.
    expect(await listSchedulesAwaitingApproval(database.db, wallet.id)).toEqual([
      expect.objectContaining({ requestId: created.data.id, summary: created.data.summary }),
    ]);
    expect(await e.approve(approver, created.data.id)).toMatchObject({
      ok: true,
      data: { status: 'SUCCESS' },
    });
    expect(await listSchedulesAwaitingApproval(database.db, wallet.id)).toEqual([]);
    const [row] = await database.db.select().from(payoutSchedules);
    expect(row).toMatchObject({ status: 'active', ownerId: owner.id, name: 'Daily' });
    await changeScheduleStatus(database.db, row!.id, 'end');
  });

  it('A weekly schedule creates its request at its time (the test moves the clock), which needs approval like any other', async () => {
    const monday = 1;
    const schedule = await approvedSchedule('Weekly rent', { cadence: 'weekly', dayOfWeek: monday });
    const due = schedule.nextRunAt!;
    expect(due.getUTCDay()).toBe(monday);
    expect(due.toISOString().slice(11, 16)).toBe('09:00');

    // Before its time: nothing.
    expect(await run(new Date(due.getTime() - MINUTE))).toBe(0);
    expect(await runsOf(schedule.id)).toHaveLength(0);

    // At its time: exactly one payout request, the owner's, waiting for approval.
    const after = new Date(due.getTime() + MINUTE);
    expect(await run(after)).toBe(1);
    const [first] = await runsOf(schedule.id);
    expect(first).toMatchObject({ dueAt: due, error: null });
    const request = await requestOf(first!.operationRequestId!);
    expect(request).toMatchObject({
      type: 'payout',
      status: 'PENDING_APPROVAL',
      walletId: wallet.id,
      requesterId: owner.id,
    });
    // The row's own reference carries the run's time, so every run's payment is found by its own.
    const stamp = due.toISOString().slice(0, 16).replace(/[-T:]/g, '');
    expect((request.payload as { items: Array<{ reference?: string }> }).items[0]?.reference).toBe(
      `rent-${stamp}`,
    );

    // Like any other request: never approved by its requester, approved by another person and sent.
    const e = engine();
    expect((await e.approve(owner, request.id)).ok).toBe(false);
    const approved = await e.approve(approver, request.id);
    expect(approved.ok).toBe(true);
    expect((await requestOf(request.id)).status).toBe('SUBMITTED');

    // The same time again: nothing more.
    expect(await run(after)).toBe(0);
    expect(await runsOf(schedule.id)).toHaveLength(1);
    const moved = await scheduleOf(schedule.id);
    expect(moved.nextRunAt?.getTime()).toBe(due.getTime() + WEEK);
    expect(moved.lastRunAt?.getTime()).toBe(due.getTime());

    // Next week's time: the next one.
    expect(await run(new Date(due.getTime() + WEEK + MINUTE))).toBe(1);
    expect(await runsOf(schedule.id)).toHaveLength(2);

    // Three weeks missed (the console was down): one run, then the first time after now.
    expect(await run(new Date(due.getTime() + 4 * WEEK + MINUTE))).toBe(1);
    expect(await runsOf(schedule.id)).toHaveLength(3);
    expect((await scheduleOf(schedule.id)).nextRunAt?.getTime()).toBe(due.getTime() + 5 * WEEK);

    const [listed] = (await listPayoutSchedules(database.db, wallet.id)).filter((s) => s.id === schedule.id);
    expect(listed).toMatchObject({ cadence: 'Every Monday at 09:00 UTC', status: 'active', payments: 2 });
    expect(listed?.runs.map((r) => r.requestStatus)).toEqual([
      'PENDING_APPROVAL',
      'PENDING_APPROVAL',
      'SUBMITTED',
    ]);
    await changeScheduleStatus(database.db, schedule.id, 'end');
  });

  it('while frozen, a run still creates its request, which waits approved but unsent', async () => {
    const schedule = await approvedSchedule('Frozen daily', { cadence: 'daily' }, { reference: 'frozen' });
    const e = engine();
    await e.setFreeze(admin, true);
    try {
      expect(await run(new Date(schedule.nextRunAt!.getTime() + MINUTE))).toBe(1);
      const [only] = await runsOf(schedule.id);
      const id = only!.operationRequestId!;
      expect((await requestOf(id)).status).toBe('PENDING_APPROVAL');
      await e.approve(approver, id);
      expect((await requestOf(id)).status).toBe('APPROVED');
    } finally {
      await e.setFreeze(admin, false);
    }
    await changeScheduleStatus(database.db, schedule.id, 'end');
  });

  it("a disabled owner's run records why nothing was created, and the schedule moves on", async () => {
    const leaver = await addUser('schedule-leaver@example.com', 'finance');
    const schedule = await approvedSchedule(
      'Leaver',
      { cadence: 'daily' },
      { reference: 'leaver', requester: leaver },
    );
    await database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, leaver.id));
    const due = schedule.nextRunAt!;
    expect(await run(new Date(due.getTime() + MINUTE))).toBe(0);
    const [only] = await runsOf(schedule.id);
    expect(only?.operationRequestId).toBeNull();
    expect(only?.error).toContain('disabled');
    expect((await scheduleOf(schedule.id)).nextRunAt?.getTime()).toBe(due.getTime() + 24 * 60 * MINUTE);
    await changeScheduleStatus(database.db, schedule.id, 'end');
  });

  it('a run the engine refuses records its reason, and the schedule moves on', async () => {
    // Two schedules paying one reference at one time: the second run's reference is taken.
    const first = await approvedSchedule('Same ref A', { cadence: 'daily' }, { reference: 'same-ref' });
    const second = await approvedSchedule('Same ref B', { cadence: 'daily' }, { reference: 'same-ref' });
    const due = first.nextRunAt!;
    expect(await run(new Date(due.getTime() + MINUTE))).toBe(1);
    const runs = [...(await runsOf(first.id)), ...(await runsOf(second.id))];
    expect(runs).toHaveLength(2);
    expect(runs.filter((r) => r.operationRequestId)).toHaveLength(1);
    expect(runs.find((r) => !r.operationRequestId)?.error).toMatch(/reference/i);
    for (const id of [first.id, second.id]) {
      expect((await scheduleOf(id)).nextRunAt?.getTime()).toBe(due.getTime() + 24 * 60 * MINUTE);
      await changeScheduleStatus(database.db, id, 'end');
    }
  });

  it('a one-off schedule runs once and ends; a paused one does not run until resumed', async () => {
    const tomorrow = new Date(Date.now() + 24 * 60 * MINUTE).toISOString().slice(0, 10);
    // Its own reference: two runs at one time cannot share one (references are unique per wallet).
    const once = await approvedSchedule(
      'One-off',
      { cadence: 'once', startsOn: tomorrow },
      { reference: 'bonus' },
    );
    expect(await run(new Date(once.nextRunAt!.getTime() + MINUTE))).toBe(1);
    expect(await scheduleOf(once.id)).toMatchObject({ status: 'ended', nextRunAt: null });

    const daily = await approvedSchedule('Paused daily', { cadence: 'daily' }, { reference: 'paused' });
    expect(await changeScheduleStatus(database.db, daily.id, 'pause')).toMatchObject({ ok: true });
    expect(await run(new Date(daily.nextRunAt!.getTime() + MINUTE))).toBe(0);
    expect(await changeScheduleStatus(database.db, daily.id, 'pause')).toMatchObject({ ok: false });
    const resumedAt = new Date(daily.nextRunAt!.getTime() + 3 * 24 * 60 * MINUTE);
    const resumed = await changeScheduleStatus(database.db, daily.id, 'resume', resumedAt);
    // Runs that fell due while paused are not made up: the next is the first after the resumption.
    expect(resumed).toMatchObject({ ok: true, row: { status: 'active' } });
    expect(resumed.ok && resumed.row.nextRunAt!.getTime()).toBe(
      daily.nextRunAt!.getTime() + 4 * 24 * 60 * MINUTE,
    );
    expect(await changeScheduleStatus(database.db, daily.id, 'end')).toMatchObject({ ok: true });
    expect(await run(new Date(daily.nextRunAt!.getTime() + 10 * 24 * 60 * MINUTE))).toBe(0);
  });

  it('a run a console stopped in the middle of is made later, once, under the id recorded with the run', async () => {
    const daily = await approvedSchedule('Interrupted', { cadence: 'daily' }, { reference: 'interrupted' });
    const dueAt = daily.nextRunAt!;
    // The run was taken and recorded, then the console stopped before making its request.
    const requestId = crypto.randomUUID();
    await database.db
      .update(payoutSchedules)
      .set({ nextRunAt: new Date(dueAt.getTime() + 24 * 60 * MINUTE), lastRunAt: dueAt })
      .where(eq(payoutSchedules.id, daily.id));
    await database.db
      .insert(payoutScheduleRuns)
      .values({ scheduleId: daily.id, dueAt, operationRequestId: requestId, createdAt: dueAt });
    const finish = (now: Date) => finishInterruptedRuns({ db: database.db, engine: engine(), now });
    // Not yet: it may still be in progress.
    expect(await finish(new Date(dueAt.getTime() + MINUTE))).toBe(0);
    expect(await finish(new Date(dueAt.getTime() + 3 * MINUTE))).toBe(1);
    expect(await requestOf(requestId)).toMatchObject({ type: 'payout', status: 'PENDING_APPROVAL' });
    // Two rounds after that make nothing more.
    const again = await Promise.all([
      finish(new Date(dueAt.getTime() + 4 * MINUTE)),
      finish(new Date(dueAt.getTime() + 4 * MINUTE)),
    ]);
    expect(again).toEqual([0, 0]);
    expect(await runsOf(daily.id)).toHaveLength(1);
  });
});
