import 'server-only';
// The reads every part of the engine shares: a request and its items, who may act, the policy and the freeze,
// the custody connection of a wallet, the references of a request and who hears of it.
import { and, asc, eq, inArray, isNull, notExists, sql } from 'drizzle-orm';
import { isTokenActorId } from '@/lib/approvals/service-tokens';
import { createCustodyClient } from '@/lib/custody';
import {
  approvalPolicies,
  consoleSettings,
  type OperationRequestRow,
  operationItems,
  operationRequests,
  users,
} from '@/lib/db/schema';
import { type Action, can } from '../../permissions';
import { tokenMay, tokenOfActor } from '../../service-tokens/tokens';
import { referenceFor } from '../hash';
import { operationType } from '../operations/registry';
import type { ParsedOperation, RegisteredOperation } from '../operations/types';
import { defaultPolicy, type PolicyValues } from '../policy';
import type { EngineSettings } from './settings';
import type { RecordingSteps } from './steps';
import { type EngineActor, type Executor, FREEZE_KEY } from './types';

export function readingSteps(
  { db, deps, now, unknownOutcomeWindowMs }: EngineSettings,
  { notify }: RecordingSteps,
) {
  async function findRequest(id: string) {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    const [row] = await db.select().from(operationRequests).where(eq(operationRequests.id, id)).limit(1);
    return row;
  }

  /** The person's role now, from the database: a role removed yesterday cannot approve today. */
  async function currentRole(actor: EngineActor): Promise<string | null> {
    const [user] = await db
      .select({ role: users.role, disabledAt: users.disabledAt })
      .from(users)
      .where(sql`${users.id}::text = ${actor.id}`)
      .limit(1);
    if (!user || user.disabledAt) return null;
    return user.role;
  }

  async function mayAct(actor: EngineActor, action: Action): Promise<boolean> {
    // An API token requests what its scopes allow while it is live, and never approves.
    if (isTokenActorId(actor.id)) {
      const token = await tokenOfActor(db, actor.id);
      return Boolean(token && !token.revokedAt && token.expiresAt > now() && tokenMay(token, action));
    }
    const role = await currentRole(actor);
    return can(role as never, action);
  }

  const notFrozen = notExists(
    db
      .select({ key: consoleSettings.key })
      .from(consoleSettings)
      .where(and(eq(consoleSettings.key, FREEZE_KEY), eq(consoleSettings.enabled, true))),
  );

  async function clientFor(walletId: string) {
    const connection = await deps.connectionFor(walletId);
    if (!connection) return null;
    return { connection, client: createCustodyClient(connection) };
  }

  /**
   * The upstream reference of each item: the requester's own where given (the customer reconciles by it),
   * else derived from the request id. Whatever is stored here is what is sent and what is looked up.
   */
  function referencesFor(operation: ParsedOperation, requestId: string): string[] {
    const own = operation.clientReferences;
    return Array.from(
      { length: operation.itemCount },
      (_, i) => own[i]?.trim() || referenceFor(requestId, i),
    );
  }

  /** Field errors for references another request of the wallet (or another item of this one) already uses. */
  async function referenceClashes(
    type: RegisteredOperation,
    walletId: string,
    references: string[],
  ): Promise<Record<string, string> | null> {
    // A configuration change has no upstream items, so no references.
    if (references.length === 0) return null;
    const errors: Record<string, string> = {};
    const field = (i: number) => type.referenceField(i);
    references.forEach((r, i) => {
      if (references.indexOf(r) !== i) errors[field(i)] = `Reference ${r} is used twice in this request.`;
    });
    const taken = await db
      .select({ reference: operationItems.reference })
      .from(operationItems)
      .where(and(eq(operationItems.walletId, walletId), inArray(operationItems.reference, references)));
    const used = new Set(taken.map((t) => t.reference));
    references.forEach((r, i) => {
      if (used.has(r)) errors[field(i)] = `Reference ${r} is already used by another request of this wallet.`;
    });
    return Object.keys(errors).length > 0 ? errors : null;
  }

  function clashResult(fieldErrors: Record<string, string>) {
    return {
      ok: false as const,
      error: Object.values(fieldErrors)[0] ?? 'A reference is already in use.',
      status: 422,
      fieldErrors,
    };
  }

  async function getPolicy(type: string): Promise<PolicyValues> {
    const [row] = await db
      .select()
      .from(approvalPolicies)
      .where(eq(approvalPolicies.operationType, type))
      .limit(1);
    if (!row) return defaultPolicy(type);
    return {
      approvals: row.approvals,
      thresholdUsd: row.thresholdUsd === null ? null : Number(row.thresholdUsd),
      expirySeconds: row.expirySeconds,
    };
  }

  async function isFrozen(): Promise<boolean> {
    const [row] = await db.select().from(consoleSettings).where(eq(consoleSettings.key, FREEZE_KEY)).limit(1);
    return row?.enabled === true;
  }

  async function itemsOf(requestId: string, executor: Executor = db) {
    return executor
      .select()
      .from(operationItems)
      .where(eq(operationItems.requestId, requestId))
      .orderBy(asc(operationItems.index));
  }

  /** When the window after the last attempt ends: before it, "the service shows nothing" proves nothing. */
  function windowEndOf(row: OperationRequestRow): Date {
    const since = row.lastAttemptAt ?? row.updatedAt;
    return new Date(since.getTime() + unknownOutcomeWindowMs);
  }

  /** The people who act on a request: its requester, and everyone who may approve its type. */
  async function notifyApprovers(row: OperationRequestRow, message: string) {
    const type = operationType(row.type);
    const people = await db
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(isNull(users.disabledAt));
    const ids = new Set<string>([row.requesterId]);
    for (const p of people) if (type && can(p.role, type.permissions.approve)) ids.add(p.id);
    for (const id of ids) await notify(id, row.id, message);
  }

  return {
    findRequest,
    currentRole,
    mayAct,
    notFrozen,
    clientFor,
    referencesFor,
    referenceClashes,
    clashResult,
    getPolicy,
    isFrozen,
    itemsOf,
    windowEndOf,
    notifyApprovers,
  };
}

export type ReadingSteps = ReturnType<typeof readingSteps>;
