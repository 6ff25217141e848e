import 'server-only';
// Scheduled payouts once approved: each due run creates an ordinary payout request in the owner's name, which
// then needs approval like any other (never the owner's own), within the spending limits and the freeze. A run
// is taken by a conditional update of the schedule's next run and recorded once per due time (a unique index),
// so two rounds or two console instances never create it twice; a run missed while the console was down runs
// once when it comes back. Pausing and ending take effect at once; resuming needs no approval, since every run
// still does.
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, lte, notExists, sql } from 'drizzle-orm';
import {
  describeCadence,
  nextRunAfter,
  type PayoutScheduleStatus,
  type PayoutScheduleView,
  type ScheduleAwaitingApproval,
  type ScheduleTiming,
} from '@/lib/approvals/payout-schedules';
import { payoutTotals } from '@/lib/approvals/payouts';
import {
  type ConsoleDb,
  operationRequests,
  type PayoutScheduleRow,
  payoutScheduleRuns,
  payoutSchedules,
  users,
} from '@/lib/db/schema';
import type { PayoutItemPayload, PayoutPayload } from '@/lib/validation/payouts';
import { appendAudit } from './audit';
import { describeFailure } from './errors';
import { logger } from './logger';
import type { ConsoleServices } from './services';

/** The audit log's actor of what the schedules do on their own. */
const SCHEDULE_ACTOR = { actorId: null, actorEmail: 'payout-schedule', role: 'system', requestId: null };
/** How often the server looks for due runs. */
const CHECK_INTERVAL_MS = 60 * 1000;
/** Most schedules one round runs; the rest are due in the next round. */
const ROUND_SIZE = 50;

/** The payments as the schedule stores them (every value as text). */
export function storedRowsOf(items: PayoutItemPayload[]): Array<Record<string, string>> {
  return items.map((i) => ({
    line: String(i.line),
    assetId: i.assetId,
    symbol: i.symbol,
    decimals: String(i.decimals),
    address: i.address,
    amount: i.amount,
    ...(i.reference ? { reference: i.reference } : {}),
    ...(i.label ? { label: i.label } : {}),
  }));
}

function timingOf(row: PayoutScheduleRow): ScheduleTiming {
  return {
    cadence: row.cadence,
    dayOfWeek: row.dayOfWeek,
    dayOfMonth: row.dayOfMonth,
    timeOfDay: row.timeOfDay,
    startsOn: row.startsOn,
  };
}

const itemsOf = (row: PayoutScheduleRow): PayoutItemPayload[] =>
  row.rows.map((r) => ({
    line: Number(r.line),
    assetId: r.assetId ?? '',
    symbol: r.symbol ?? '',
    decimals: Number(r.decimals),
    address: r.address ?? '',
    amount: r.amount ?? '',
    ...(r.reference ? { reference: r.reference } : {}),
    ...(r.label ? { label: r.label } : {}),
  }));

/** `202611300900`: a run's time in its references, so each run's payments are found again by their own. */
const runStamp = (dueAt: Date) => dueAt.toISOString().slice(0, 16).replace(/[-T:]/g, '');

/** The payout request of one run: the schedule's payments, their references suffixed with the run's time. */
function runPayload(row: PayoutScheduleRow, dueAt: Date): PayoutPayload {
  return {
    source: row.source === 'master' ? { kind: 'master' } : { kind: 'address', addressId: row.source },
    fileName: `${row.name} (run of ${dueAt.toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
    items: itemsOf(row).map((item) =>
      item.reference ? { ...item, reference: `${item.reference}-${runStamp(dueAt)}` } : item,
    ),
  };
}

/** What a run needs of the approval engine: creating a request as a person (it checks their role now). */
interface RequestCreator {
  create(
    actor: { id: string; email: string; role: string; requestId: string | null },
    kind: string,
    scope: string,
    payload: unknown,
    options: { id: string },
  ): Promise<{ ok: true; data: { id: string } } | { ok: false; error: string }>;
  hasRequest(id: string): Promise<boolean>;
}

type RunOutcome = { requestId: string; error: null } | { requestId: null; error: string };

/** Creates the run's payout request as the owner's; a refusal (limits, cooling-off, a disabled owner) is the error. */
async function createRunRequest(
  db: ConsoleDb,
  engine: RequestCreator,
  row: PayoutScheduleRow,
  dueAt: Date,
  requestId: string,
): Promise<RunOutcome> {
  const [owner] = await db
    .select({ id: users.id, email: users.email, role: users.role, disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.id, row.ownerId))
    .limit(1);
  if (!owner || owner.disabledAt)
    return {
      requestId: null,
      error: `The schedule's owner ${row.ownerEmail} is disabled or removed: no request was created.`,
    };
  try {
    const created = await engine.create(
      { id: owner.id, email: owner.email, role: owner.role, requestId: null },
      'payout',
      row.walletId,
      runPayload(row, dueAt),
      { id: requestId },
    );
    return created.ok
      ? { requestId: created.data.id, error: null }
      : { requestId: null, error: created.error };
  } catch (error) {
    return { requestId: null, error: describeFailure(error, null, 'payout schedule run').message };
  }
}

interface RunParts {
  db: ConsoleDb;
  engine: RequestCreator;
  now: Date;
}

/**
 * One round: every active schedule whose next run is due creates that run's request (or records why it could
 * not) and moves on to its next run after `now`. Answers the runs created in this round.
 */
export async function runDueSchedules({ db, engine, now }: RunParts): Promise<number> {
  const due = await db
    .select()
    .from(payoutSchedules)
    .where(and(eq(payoutSchedules.status, 'active'), lte(payoutSchedules.nextRunAt, now)))
    .orderBy(asc(payoutSchedules.nextRunAt))
    .limit(ROUND_SIZE);
  let created = 0;
  for (const row of due) {
    const dueAt = row.nextRunAt;
    if (!dueAt) continue;
    // Runs missed while the console was down are one run: the next one is the first after now.
    const next = nextRunAfter(timingOf(row), now);
    // Taking the run and recording it, with the id its request will have, are one step: a run taken is never
    // lost, and a console that stops before the request is made makes it later under that id (never twice).
    const run = { id: '', requestId: randomUUID() };
    const taken = await db.transaction(async (tx) => {
      const [moved] = await tx
        .update(payoutSchedules)
        .set({ nextRunAt: next, lastRunAt: dueAt, status: next ? 'active' : 'ended', updatedAt: now })
        .where(
          and(
            eq(payoutSchedules.id, row.id),
            eq(payoutSchedules.status, 'active'),
            eq(payoutSchedules.nextRunAt, dueAt),
          ),
        )
        .returning({ id: payoutSchedules.id });
      if (!moved) return false;
      const [recorded] = await tx
        .insert(payoutScheduleRuns)
        .values({ scheduleId: row.id, dueAt, operationRequestId: run.requestId, createdAt: now })
        .onConflictDoNothing()
        .returning({ id: payoutScheduleRuns.id });
      if (!recorded) return false;
      run.id = recorded.id;
      return true;
    });
    // Another round or instance took this run first.
    if (!taken) continue;
    if (await finishRun(db, engine, row, dueAt, run)) created += 1;
  }
  return created;
}

/**
 * Makes a taken run's request under the id recorded with the run, or records why it could not be made; answers
 * whether the request exists now. Another round making it at the same moment makes it once (the id is the
 * request's primary key).
 */
async function finishRun(
  db: ConsoleDb,
  engine: RequestCreator,
  row: PayoutScheduleRow,
  dueAt: Date,
  run: { id: string; requestId: string },
): Promise<boolean> {
  const outcome = await createRunRequest(db, engine, row, dueAt, run.requestId);
  const made = outcome.requestId !== null || (await engine.hasRequest(run.requestId));
  if (!made)
    await db
      .update(payoutScheduleRuns)
      .set({ operationRequestId: null, error: outcome.error })
      .where(eq(payoutScheduleRuns.id, run.id));
  await appendAudit(db, {
    ...SCHEDULE_ACTOR,
    action: 'payoutSchedule.run',
    target: row.id,
    input: {
      dueAt: dueAt.toISOString(),
      requestId: made ? run.requestId : null,
      error: made ? null : outcome.error,
    },
    outcome: made ? 'success' : 'failed',
  });
  return made;
}

/** A run taken this long ago whose request does not exist and which recorded no error was interrupted. */
const INTERRUPTED_AFTER_MS = 2 * 60 * 1000;

/**
 * Runs a console stopped in the middle of (taken and recorded, request not made, no error): their request is made
 * now, under the id recorded with the run. Answers how many were made.
 */
export async function finishInterruptedRuns({ db, engine, now }: RunParts): Promise<number> {
  const waiting = await db
    .select({ run: payoutScheduleRuns, schedule: payoutSchedules })
    .from(payoutScheduleRuns)
    .innerJoin(payoutSchedules, eq(payoutSchedules.id, payoutScheduleRuns.scheduleId))
    .where(
      and(
        isNull(payoutScheduleRuns.error),
        isNotNull(payoutScheduleRuns.operationRequestId),
        lt(payoutScheduleRuns.createdAt, new Date(now.getTime() - INTERRUPTED_AFTER_MS)),
        notExists(
          db
            .select({ id: operationRequests.id })
            .from(operationRequests)
            .where(eq(operationRequests.id, payoutScheduleRuns.operationRequestId)),
        ),
      ),
    )
    .limit(ROUND_SIZE);
  let made = 0;
  for (const { run, schedule } of waiting) {
    const requestId = run.operationRequestId;
    if (requestId && (await finishRun(db, engine, schedule, run.dueAt, { id: run.id, requestId }))) made += 1;
  }
  return made;
}

const TIMER = Symbol.for('custody-console.payout-schedules');
type Holder = { [TIMER]?: ReturnType<typeof setInterval> };

/** Starts the check for due runs, every minute (once per process). */
export function startPayoutSchedules(services: ConsoleServices, engine: () => Promise<RequestCreator>): void {
  const holder = globalThis as Holder;
  if (holder[TIMER]) return;
  const log = logger.child({ component: 'payout-schedules' });
  let running = false;
  holder[TIMER] = setInterval(() => {
    if (running) return;
    running = true;
    engine()
      .then(async (e) => {
        const parts = { db: services.database.db, engine: e, now: new Date() };
        return (await finishInterruptedRuns(parts)) + (await runDueSchedules(parts));
      })
      .then((created) => {
        if (created > 0) log.info({ created }, 'scheduled payout requests created');
      })
      .catch((error) => log.warn({ err: error }, 'payout schedules round failed'))
      .finally(() => {
        running = false;
      });
  }, CHECK_INTERVAL_MS);
  holder[TIMER].unref?.();
}

/** A wallet's schedules, newest first, each with its recent runs and the status of each run's request. */
export async function listPayoutSchedules(db: ConsoleDb, walletId: string): Promise<PayoutScheduleView[]> {
  const rows = await db
    .select()
    .from(payoutSchedules)
    .where(eq(payoutSchedules.walletId, walletId))
    .orderBy(desc(payoutSchedules.createdAt));
  if (rows.length === 0) return [];
  const runs = await db
    .select({
      id: payoutScheduleRuns.id,
      scheduleId: payoutScheduleRuns.scheduleId,
      dueAt: payoutScheduleRuns.dueAt,
      requestId: payoutScheduleRuns.operationRequestId,
      error: payoutScheduleRuns.error,
      requestStatus: operationRequests.status,
    })
    .from(payoutScheduleRuns)
    .leftJoin(operationRequests, eq(operationRequests.id, payoutScheduleRuns.operationRequestId))
    .where(
      inArray(
        payoutScheduleRuns.scheduleId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(desc(payoutScheduleRuns.dueAt));
  return rows.map((row) => {
    const items = itemsOf(row);
    return {
      id: row.id,
      name: row.name,
      cadence: describeCadence(timingOf(row)),
      status: row.status as PayoutScheduleStatus,
      source: row.source,
      ownerEmail: row.ownerEmail,
      approvedRequestId: row.approvedRequestId,
      payments: items.length,
      totals: payoutTotals(items),
      nextRunAt: row.nextRunAt?.toISOString() ?? null,
      lastRunAt: row.lastRunAt?.toISOString() ?? null,
      runs: runs
        .filter((r) => r.scheduleId === row.id)
        .slice(0, 20)
        .map((r) => ({
          id: r.id,
          dueAt: r.dueAt.toISOString(),
          requestId: r.requestId,
          requestStatus: r.requestStatus ?? null,
          error: r.error,
        })),
    };
  });
}

/** The schedules of a wallet asked for and waiting for approval, newest first. */
export async function listSchedulesAwaitingApproval(
  db: ConsoleDb,
  walletId: string,
): Promise<ScheduleAwaitingApproval[]> {
  const rows = await db
    .select({
      requestId: operationRequests.id,
      summary: operationRequests.summary,
      requesterEmail: operationRequests.requesterEmail,
      createdAt: operationRequests.createdAt,
      expiresAt: operationRequests.expiresAt,
    })
    .from(operationRequests)
    .where(
      and(
        eq(operationRequests.type, 'payoutSchedule'),
        // A schedule request is the console's (its wallet is in the payload).
        sql`${operationRequests.payload}->>'walletId' = ${walletId}`,
        eq(operationRequests.status, 'PENDING_APPROVAL'),
      ),
    )
    .orderBy(desc(operationRequests.createdAt));
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  }));
}

export type ScheduleChange = 'pause' | 'resume' | 'end';

/**
 * Pauses, resumes or ends a schedule at once. A resumed schedule runs next at its first time after now:
 * runs that fell due while it was paused are not made up.
 */
export async function changeScheduleStatus(
  db: ConsoleDb,
  scheduleId: string,
  change: ScheduleChange,
  now: Date = new Date(),
): Promise<{ ok: true; row: PayoutScheduleRow } | { ok: false; error: string }> {
  const [row] = await db.select().from(payoutSchedules).where(eq(payoutSchedules.id, scheduleId)).limit(1);
  if (!row) return { ok: false, error: 'That schedule does not exist.' };
  const from: Record<ScheduleChange, PayoutScheduleStatus[]> = {
    pause: ['active'],
    resume: ['paused'],
    end: ['active', 'paused'],
  };
  if (!from[change].includes(row.status as PayoutScheduleStatus))
    return { ok: false, error: `The schedule is ${row.status}: it cannot be ${CHANGED[change]}.` };
  const next = change === 'resume' ? nextRunAfter(timingOf(row), now) : null;
  const set =
    change === 'pause'
      ? { status: 'paused' }
      : change === 'end' || !next
        ? { status: 'ended', nextRunAt: null }
        : { status: 'active', nextRunAt: next };
  const [changed] = await db
    .update(payoutSchedules)
    .set({ ...set, updatedAt: now })
    .where(and(eq(payoutSchedules.id, scheduleId), eq(payoutSchedules.status, row.status)))
    .returning();
  if (!changed) return { ok: false, error: 'The schedule changed meanwhile. Reload and try again.' };
  return { ok: true, row: changed };
}

const CHANGED: Record<ScheduleChange, string> = { pause: 'paused', resume: 'resumed', end: 'ended' };
