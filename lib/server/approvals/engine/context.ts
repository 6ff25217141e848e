import 'server-only';
// What the parts of the approval engine share: its dependencies and settings, and the steps every part takes
// (audit, events, notifications, conditional status changes, policy and freeze reads).
import { and, asc, eq, inArray, isNull, notExists, type SQL, sql } from 'drizzle-orm';
import { isTokenActorId } from '@/lib/approvals/service-tokens';
import type { ResolutionVerdict } from '@/lib/approvals/types';
import { createCustodyClient, type TransportOptions } from '@/lib/custody';
import {
  approvalPolicies,
  type ConsoleDb,
  consoleSettings,
  notifications,
  type OperationRequestRow,
  operationEvents,
  operationItems,
  operationRequests,
  users,
} from '@/lib/db/schema';
import type { AlertSink } from '../../alerts/outbox';
import { appendAudit } from '../../audit';
import { logger } from '../../logger';
import { type Action, can } from '../../permissions';
import { tokenMay, tokenOfActor } from '../../service-tokens/tokens';
import { referenceFor } from '../hash';
import { type LookupCapability, looksLikeMissingEndpoint } from '../lookup';
import { operationType } from '../operations/registry';
import {
  type ConfigurationServices,
  LocalRefusal,
  type ParsedOperation,
  type RegisteredOperation,
} from '../operations/types';
import { defaultPolicy, type PolicyValues } from '../policy';
import { assertTransition, type RequestStatus } from '../states';
import { createEngineAlerts } from './alerts';

export interface EngineActor {
  id: string;
  email: string;
  role: string;
  requestId?: string | null;
}

/**
 * A decision's second-factor proof, asked for once everything else lets the decision through (so a decision
 * refused anyway never asks for a code) and just before it is recorded: false refuses with `PROOF_REQUIRED`.
 * Decisions made by the console's own code (tests, the benchmark, the background round) pass none.
 */
export type DecisionProof = () => Promise<boolean>;

export const PROOF_REQUIRED = 'Confirm it is you to continue.';

/** Background work (submission after a thaw, reconciliation, following) is done in the console's name. */
export const SYSTEM_ACTOR: EngineActor = { id: 'system', email: 'system', role: 'system', requestId: null };

export interface EngineDeps {
  db: ConsoleDb;
  /** Where a wallet's custody calls go (base URL, API key, fetch); null when the wallet is not connected. */
  connectionFor(walletId: string): Promise<TransportOptions | null>;
  now?: () => Date;
  /**
   * After a lost or late answer, how long since the attempt before "the service shows no transaction with
   * the reference" may mean "not executed": longer than any plausible late execution (UNKNOWN_OUTCOME_WINDOW_MS).
   */
  unknownOutcomeWindowMs?: number;
  /** Which lookup extensions a wallet's service lacks, and how to recognise a missing endpoint. */
  capabilities?: EngineCapabilities;
  /** Follow-up of submitted and unknown requests: backoff from `baseMs` to `maxMs`, parked after `maxRounds`. */
  followUp?: Partial<FollowUpSettings>;
  /** A request left SUBMITTING this long (the process died mid-call) is treated as an unknown outcome. */
  stuckSubmittingMs?: number;
  /** What configuration kinds change besides the database (sealing, the wallet registry). */
  configuration?: ConfigurationServices;
  /** Alerts outside the console (email, chat): the outbox they are written to; none without it. */
  alerts?: AlertSink;
}

const NO_CONFIGURATION: ConfigurationServices = {
  seal: () => {
    throw new LocalRefusal('Configuration changes cannot be carried out by this console.');
  },
  open: () => {
    throw new LocalRefusal('Configuration changes cannot be carried out by this console.');
  },
  connectWallet: () => Promise.reject(new LocalRefusal('Wallet connections cannot be changed here.')),
  rotateWalletKey: () => Promise.reject(new LocalRefusal('Wallet connections cannot be changed here.')),
  removeWallet: () => Promise.reject(new LocalRefusal('Wallet connections cannot be changed here.')),
  sendInvitation: () => Promise.reject(new LocalRefusal('This console cannot send invitations.')),
  invitationProblem: () => 'This console cannot send invitations.',
};

export interface EngineCapabilities {
  missing(walletId: string): Promise<Set<LookupCapability>>;
  markMissing(walletId: string, name: LookupCapability): Promise<void>;
  isMissingEndpoint(error: unknown): boolean;
}

interface FollowUpSettings {
  baseMs: number;
  maxMs: number;
  /** Quiet rounds (nothing changed) before the request waits for a webhook or a person. */
  maxRounds: number;
  /** How long a claimed round may run before another instance may take the request. */
  leaseMs: number;
}

/** Without a capability store every extension is tried, and a missing one is skipped from then on. */
function inMemoryCapabilities(): EngineCapabilities {
  const missing = new Map<string, Set<LookupCapability>>();
  return {
    missing: async (walletId) => new Set(missing.get(walletId) ?? []),
    markMissing: async (walletId, name) => {
      const set = missing.get(walletId) ?? new Set();
      set.add(name);
      missing.set(walletId, set);
    },
    isMissingEndpoint: looksLikeMissingEndpoint,
  };
}

/** The database, or a transaction on it: a step written inside a caller's transaction takes it. */
export type Executor = Pick<ConsoleDb, 'select' | 'insert' | 'update'>;

export const FREEZE_KEY = 'freeze';
export const PAYLOAD_CHANGED =
  'The request changed after it was approved (payload hash mismatch). Nothing was sent; create a new request.';
export const log = logger.child({ component: 'approvals' });

/** "14:05 UTC": server messages name the time zone they speak in. */
export function utcTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function fail(error: string, status = 409): { ok: false; error: string; status: number } {
  return { ok: false, error, status };
}

export type { ResolutionVerdict };

export const RESOLUTION_WORDS: Record<ResolutionVerdict, string> = {
  paid: 'paid',
  not_paid: 'not paid',
  failed: 'failed',
};

/** A manual resolution waiting for (or, once confirmed, carrying) its second person. */
export interface ResolutionProposal {
  verdict: ResolutionVerdict;
  transactionIds?: string[];
  note: string;
  byId: string;
  byEmail: string;
  at: string;
  /** The request's status when it was recorded: a change since voids it. */
  status: string;
  confirmedById?: string;
  confirmedByEmail?: string;
  confirmedAt?: string;
}

/** The engine's dependencies with what every part of it shares: audit, events, notifications, transitions. */
export function createEngineContext(deps: EngineDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  const unknownOutcomeWindowMs = deps.unknownOutcomeWindowMs ?? 600_000;

  const capabilities = deps.capabilities ?? inMemoryCapabilities();

  const followUp: FollowUpSettings = {
    baseMs: 2_000,
    maxMs: 300_000,
    maxRounds: 19,
    leaseMs: 60_000,
    ...deps.followUp,
  };

  /** Columns that (re)start the follow-up of a request entering SUBMITTED or OUTCOME_UNKNOWN. */
  const startFollowing = () => ({
    followUpAttempts: 0,
    nextFollowUpAt: new Date(now().getTime() + followUp.baseMs),
    followUpParkedAt: null,
  });

  const stuckSubmittingMs = deps.stuckSubmittingMs ?? 120_000;

  const configuration = deps.configuration ?? NO_CONFIGURATION;

  const alerts = createEngineAlerts(db, deps.alerts);

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
    db,
    deps,
    now,
    unknownOutcomeWindowMs,
    capabilities,
    followUp,
    startFollowing,
    stuckSubmittingMs,
    configuration,
    audit,
    event,
    notify,
    transition,
    transitionOf,
    moved,
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
    alerts,
  };
}

export type EngineContext = ReturnType<typeof createEngineContext>;
