import 'server-only';
// The steps every part of the engine writes with: audit, events, notifications and conditional status changes.
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import { notifications, type OperationRequestRow, operationEvents, operationRequests } from '@/lib/db/schema';
import { appendAudit } from '../../audit';
import { assertTransition, type RequestStatus } from '../states';
import type { EngineSettings } from './settings';
import { type EngineActor, type Executor, SYSTEM_ACTOR } from './types';

export function recordingSteps({ db, now }: EngineSettings) {
  async function audit(
    actor: EngineActor,
    action: string,
    outcome: string,
    target: string | null,
    input: Record<string, unknown> = {},
  ) {
    await appendAudit(db, {
      actorId: actor.id === SYSTEM_ACTOR.id ? null : actor.id,
      actorEmail: actor.email,
      role: actor.role,
      action,
      target,
      input,
      outcome,
      requestId: actor.requestId ?? null,
    });
  }

  async function event(
    requestId: string,
    kind: string,
    actorEmail: string | null,
    detail: Record<string, unknown> = {},
    executor: Executor = db,
  ) {
    await executor.insert(operationEvents).values({ requestId, kind, actorEmail, detail, at: now() });
  }

  async function notify(userId: string, requestId: string, message: string) {
    if (!userId || userId === SYSTEM_ACTOR.id) return;
    await db.insert(notifications).values({ userId, requestId, message, createdAt: now() });
  }

  /** The conditions and columns of a conditional status change. */
  function transitionOf(
    id: string,
    from: RequestStatus | RequestStatus[],
    to: RequestStatus,
    set: Partial<typeof operationRequests.$inferInsert>,
    extra: SQL | undefined,
    executor: Executor,
  ) {
    const sources = Array.isArray(from) ? from : [from];
    for (const s of sources) assertTransition(s, to);
    return executor
      .update(operationRequests)
      .set({ ...set, status: to, updatedAt: now() })
      .where(and(eq(operationRequests.id, id), inArray(operationRequests.status, sources), extra));
  }

  /** A conditional status change: it happens only if the request is still in `from`; the row after it. */
  async function transition(
    id: string,
    from: RequestStatus | RequestStatus[],
    to: RequestStatus,
    set: Partial<typeof operationRequests.$inferInsert> = {},
    extra?: SQL,
    executor: Executor = db,
  ): Promise<OperationRequestRow | undefined> {
    const [row] = await transitionOf(id, from, to, set, extra, executor).returning();
    return row;
  }

  /** The same conditional change when only whether it happened matters: nothing of the row is read back. */
  async function moved(
    id: string,
    from: RequestStatus | RequestStatus[],
    to: RequestStatus,
    set: Partial<typeof operationRequests.$inferInsert> = {},
    executor: Executor = db,
  ): Promise<boolean> {
    const rows = await transitionOf(id, from, to, set, undefined, executor).returning({
      id: operationRequests.id,
    });
    return rows.length > 0;
  }

  return { audit, event, notify, transitionOf, transition, moved };
}

export type RecordingSteps = ReturnType<typeof recordingSteps>;
