import 'server-only';
// The claim of an approved request for submission: one conditional update, its event and the items to send.
import { sql } from 'drizzle-orm';
import {
  type OperationItemRow,
  type OperationRequestRow,
  operationEvents,
  operationRequests,
} from '@/lib/db/schema';
import { operationType } from '../../operations/registry';
import type { EngineContext } from '../context';
import { type EngineActor, type Executor, SYSTEM_ACTOR } from '../types';

/** A request claimed for submission, with the items to send. */
export interface Claimed {
  row: OperationRequestRow;
  items: OperationItemRow[];
}

/**
 * The claim inside the caller's transaction `tx`: APPROVED to SUBMITTING (one conditional update), its
 * `submitting` event (after `before`, when given), and the items to send. `approved` is the request as the caller read it when it became
 * APPROVED: nothing but a claim changes an approved request, so then only what the claim changes is read back.
 */
export async function claim(
  ctx: EngineContext,
  tx: Executor,
  id: string,
  typeKey: string,
  actor: EngineActor,
  approved?: OperationRequestRow,
  before?: typeof operationEvents.$inferInsert,
): Promise<Claimed | undefined> {
  const { now, transition, transitionOf, notFrozen, itemsOf } = ctx;
  // The freeze holds what moves money or signs; a configuration change (lifting the freeze among them) is not.
  const local = operationType(typeKey)?.scope === 'console';
  const set = {
    submitAttempts: sql`${operationRequests.submitAttempts} + 1` as never,
    lastAttemptAt: now(),
    lastError: null,
  };
  let row: OperationRequestRow | undefined;
  if (approved) {
    const [changed] = await transitionOf(
      id,
      'APPROVED',
      'SUBMITTING',
      set,
      local ? undefined : notFrozen,
      tx,
    ).returning({
      status: operationRequests.status,
      submitAttempts: operationRequests.submitAttempts,
      lastAttemptAt: operationRequests.lastAttemptAt,
      lastError: operationRequests.lastError,
      updatedAt: operationRequests.updatedAt,
    });
    row = changed && { ...approved, ...changed };
  } else {
    row = await transition(id, 'APPROVED', 'SUBMITTING', set, local ? undefined : notFrozen, tx);
  }
  // `before` (the final approval's event) is written whether or not the request was claimed; with the claim's
  // own event after it, in one insert.
  const events = [
    ...(before ? [before] : []),
    ...(row
      ? [
          {
            requestId: row.id,
            kind: 'submitting',
            actorEmail: submittingActor(actor),
            detail: { attempt: row.submitAttempts },
            at: now(),
          },
        ]
      : []),
  ];
  if (events.length > 0) await tx.insert(operationEvents).values(events);
  if (!row) return undefined;
  return { row, items: await itemsOf(row.id, tx) };
}

export const submittingActor = (actor: EngineActor) =>
  actor.email === SYSTEM_ACTOR.email ? null : actor.email;
