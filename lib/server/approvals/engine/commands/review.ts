import 'server-only';
// A request's review, built by its kind (from the service, or locally for a configuration change), the reviews
// kept from a preview for the create that follows, and the address book's rules on both.
import { CustodyError } from '@/lib/custody';
import { WALLET_NOT_CONNECTED } from '../../../errors';
import { fetchBalances } from '../../balances';
import { destinationRefusal } from '../../destinations';
import { hashPayload } from '../../hash';
import { operationType } from '../../operations/registry';
import {
  type BuiltReview,
  LocalRefusal,
  type ParsedOperation,
  type RegisteredOperation,
} from '../../operations/types';
import { highestApprovalsFor } from '../../policy';
import type { EngineContext } from '../context';
import { type EngineActor, fail } from '../types';

async function review(
  ctx: EngineContext,
  operation: ParsedOperation,
  walletId: string,
  requestId: string,
  actor: EngineActor,
): Promise<BuiltReview> {
  const { db, now, clientFor, referencesFor, getPolicy } = ctx;
  if (operation.local)
    return operation.local.buildReview({
      db,
      requestId,
      requesterId: actor.id,
      getPolicy,
      labelOf: (type) => operationType(type)?.label ?? type,
      walletReview: (kind, scope, payload) => {
        const inner = operationType(kind)?.parse(payload);
        if (!inner || inner.local) throw new LocalRefusal('The request is not valid.');
        return review(ctx, inner, scope, requestId, actor);
      },
    });
  const target = await clientFor(walletId);
  if (!target)
    throw new CustodyError({
      kind: 'http',
      status: 404,
      message: WALLET_NOT_CONNECTED,
      method: 'GET',
      path: '',
    });
  const references = referencesFor(operation, requestId);
  return operation.buildReview({
    db,
    client: target.client,
    walletId,
    requestId,
    references,
    balances: (addressId) => fetchBalances(target.connection, walletId, addressId).catch(() => []),
    highestApprovals: () => highestApprovalsFor(db, operation.kind),
    now: now(),
  });
}

const PREVIEW_TTL_MS = 10 * 60_000;

export const previewKey = (
  actor: EngineActor,
  type: RegisteredOperation,
  walletId: string,
  payload: unknown,
) => `${actor.id}|${type.key}|${walletId}|${hashPayload(payload)}`;

export function takePreview(ctx: EngineContext, key: string) {
  const { now, previews } = ctx;
  const kept = previews.get(key);
  previews.delete(key);
  return kept && now().getTime() - kept.at < PREVIEW_TTL_MS ? kept : undefined;
}

export function keepPreview(ctx: EngineContext, key: string, id: string, built: BuiltReview) {
  const { now, previews } = ctx;
  const at = now().getTime();
  for (const [k, v] of previews) if (at - v.at >= PREVIEW_TTL_MS || previews.size > 500) previews.delete(k);
  previews.set(key, { id, built, at });
}

/** A configuration kind refuses a review whose subject is gone (the user, the wallet): a sentence, not a throw. */
export async function reviewOrRefusal(
  ctx: EngineContext,
  operation: ParsedOperation,
  walletId: string,
  requestId: string,
  actor: EngineActor,
): Promise<BuiltReview | { ok: false; error: string; status: number }> {
  try {
    return await review(ctx, operation, walletId, requestId, actor);
  } catch (error) {
    if (error instanceof LocalRefusal) return fail(error.message, 422);
    throw error;
  }
}

/**
 * Where the request sends money, held to the address book's rules as it stands now: the recipients the payload
 * names, and those the review learnt from the service (a retried transaction's, the rules a switch puts in
 * force). The same check the final approval and the submission make again.
 */
export async function destinationsRefused(
  ctx: EngineContext,
  operation: ParsedOperation,
  walletId: string,
  built: BuiltReview,
) {
  const { db, now } = ctx;
  const refusal = await destinationRefusal(
    db,
    operation.kind,
    walletId,
    operation.payload,
    built.review,
    now(),
  );
  return refusal ? fail(`${refusal} Nothing was requested.`, 422) : null;
}
