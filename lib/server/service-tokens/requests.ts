import 'server-only';
// A token's money-moving calls become approval requests exactly as a person's do, with three more rules: an
// Idempotency-Key makes a repeated call (a retry after a lost answer) find the request the first call made,
// never make a second; the token's daily cap in USD is checked inside the creating transaction under a lock per
// token, so two calls at once cannot both pass it; and every request needs the token's minimum of approvals.
import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, notInArray, sql } from 'drizzle-orm';
import {
  type ConsoleDb,
  operationRequests,
  type ServiceTokenRow,
  serviceTokenIdempotency,
  serviceTokens,
} from '@/lib/db/schema';
import type { ApprovalEngine } from '../approvals';
import type { EngineActor } from '../approvals/engine';
import { compareUsd, sumUsd } from '../approvals/usd';

/** Statuses whose amount no longer counts against a cap: nothing was or will be sent. */
const NOT_COUNTED = ['REJECTED', 'CANCELLED', 'EXPIRED'];

/** How long a first call with a key is taken to be still running before a retry may create in its place. */
const IN_PROGRESS_MS = 60_000;

export type TokenRequestOutcome =
  | { ok: true; requestId: string; replayed: boolean }
  | { ok: false; status: number; code: string; message: string; retryAfterSeconds?: number }
  /** The payload's own check refused the call (its answer as it stands). */
  | { ok: false; response: Response };

/** What the token's requests of the last 24 hours add up to, in USD (those still counting). */
async function capUsed(db: Pick<ConsoleDb, 'select'>, actorId: string, at: Date) {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${operationRequests.amountUsd}), 0)::text` })
    .from(operationRequests)
    .where(
      and(
        eq(operationRequests.requesterId, actorId),
        gt(operationRequests.createdAt, new Date(at.getTime() - 86_400_000)),
        notInArray(operationRequests.status, NOT_COUNTED),
      ),
    );
  return row?.total ?? '0';
}

/**
 * A money-moving call of a token: its Idempotency-Key is looked up first, so a repeat answers with the request
 * the first call made even where the wallet changed since (a balance the first request spent); only then is the
 * payload checked (`payload`) and the request made, under the id the key's row names.
 */
export async function createTokenRequest(input: {
  db: ConsoleDb;
  engine: ApprovalEngine;
  token: ServiceTokenRow;
  actor: EngineActor;
  kind: 'withdraw' | 'swap';
  walletId: string;
  payload: () => Promise<{ ok: true; payload: unknown } | { ok: false; response: Response }>;
  idempotencyKey: string | null;
  bodyHash: string;
  now: Date;
}): Promise<TokenRequestOutcome> {
  const { db, engine, token, actor } = input;
  let id: string = randomUUID();
  if (input.idempotencyKey) {
    const key = input.idempotencyKey;
    const [claimed] = await db
      .insert(serviceTokenIdempotency)
      .values({
        tokenId: token.id,
        key,
        bodyHash: input.bodyHash,
        operationRequestId: id,
        createdAt: input.now,
      })
      .onConflictDoNothing()
      .returning({ id: serviceTokenIdempotency.operationRequestId });
    if (!claimed) {
      const [existing] = await db
        .select()
        .from(serviceTokenIdempotency)
        .where(and(eq(serviceTokenIdempotency.tokenId, token.id), eq(serviceTokenIdempotency.key, key)))
        .limit(1);
      if (!existing) return inProgress();
      if (existing.bodyHash !== input.bodyHash)
        return {
          ok: false,
          status: 422,
          code: 'idempotency_key_reused',
          message:
            'This Idempotency-Key was used with a different request body. Use a new key for a new request.',
        };
      if (await engine.hasRequest(existing.operationRequestId))
        return { ok: true, requestId: existing.operationRequestId, replayed: true };
      if (input.now.getTime() - existing.createdAt.getTime() < IN_PROGRESS_MS) return inProgress();
      // The first call stopped before its request was stored: this one makes it, under the same id, so two
      // late retries still make one request (the engine answers a second call under one id with the first's).
      id = existing.operationRequestId;
    }
  }
  const checked = await input.payload();
  if (!checked.ok) {
    await freeKey(db, token.id, input.idempotencyKey, id);
    return checked;
  }
  let overCap = false;
  const created = await engine.create(actor, input.kind, input.walletId, checked.payload, {
    id,
    minApprovals: token.minApprovals,
    guard: async (tx, request) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`service-token-cap:${token.id}`}))`);
      // Revoked or expired since the call was authenticated: nothing is made (revoking cancels what waits).
      const [live] = await tx
        .select({ id: serviceTokens.id })
        .from(serviceTokens)
        .where(
          and(
            eq(serviceTokens.id, token.id),
            isNull(serviceTokens.revokedAt),
            gt(serviceTokens.expiresAt, request.at),
          ),
        );
      if (!live) return 'This token was revoked or expired. Nothing was requested.';
      if (request.amountUsd === null)
        return 'The USD value of this request is unknown, so the token’s daily cap cannot be checked. Nothing was requested.';
      const used = await capUsed(tx, actor.id, request.at);
      const after = sumUsd([used, request.amountUsd]) ?? request.amountUsd;
      overCap = compareUsd(after, token.dailyCapUsd) > 0;
      if (overCap)
        return `Over this token’s daily cap: ${used} of ${token.dailyCapUsd} USD used in the last 24 hours, and this request adds ${request.amountUsd}. Nothing was requested.`;
      return null;
    },
  });
  if (created.ok) return { ok: true, requestId: created.data.id, replayed: created.data.existing };
  await freeKey(db, token.id, input.idempotencyKey, id);
  const status = created.status ?? 422;
  return {
    ok: false,
    status,
    code: overCap ? 'daily_cap_exceeded' : status === 403 ? 'forbidden' : 'request_refused',
    message: created.error,
  };
}

/** Nothing was made: the key is freed, so the system may correct the body and send it again. */
async function freeKey(db: ConsoleDb, tokenId: string, key: string | null, id: string) {
  if (!key) return;
  await db
    .delete(serviceTokenIdempotency)
    .where(
      and(
        eq(serviceTokenIdempotency.tokenId, tokenId),
        eq(serviceTokenIdempotency.key, key),
        eq(serviceTokenIdempotency.operationRequestId, id),
      ),
    );
}

function inProgress(): TokenRequestOutcome {
  return {
    ok: false,
    status: 409,
    code: 'idempotency_in_progress',
    message: 'A call with this Idempotency-Key is still being handled. Send it again in a moment.',
    retryAfterSeconds: 1,
  };
}
