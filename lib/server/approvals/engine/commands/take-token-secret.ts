import 'server-only';
// A service token's secret, shown once to the admin who asked for it.
import { and, eq, sql } from 'drizzle-orm';
import { operationRequests } from '@/lib/db/schema';
import type { EngineContext } from '../context';
import { type EngineActor, fail } from '../types';

/**
 * A secret a configuration change produced (a service token), shown once to the admin who asked for it and
 * then dropped: the sealed copy is removed by one conditional update, so two
 * tabs cannot both read it.
 */
async function takeSealedSecret(
  ctx: EngineContext,
  actor: EngineActor,
  id: string,
  secret: {
    type: string;
    /** The key under `result.sealed`, and the result's flag that says whether it waits or was shown. */
    field: 'tokenSecret';
    binding: string;
    audit: string;
    /** Who sees it ("Only the admin who asked for this token …"), and what to do once it is gone. */
    notYours: string;
    gone: string;
  },
) {
  const { db, now, audit, findRequest, configuration } = ctx;
  const row = await findRequest(id);
  if (row?.type !== secret.type) return fail('No such request.', 404);
  if (row.requesterId !== actor.id) {
    await audit(actor, secret.audit, 'denied', id);
    return fail(secret.notYours, 403);
  }
  const stored = row.result as { sealed?: Record<string, string>; message?: string } | null;
  const sealed = stored?.sealed?.[secret.field];
  if (row.status !== 'SUCCESS' || !stored || !sealed) return fail(secret.gone, 410);
  const { sealed: _dropped, ...rest } = stored;
  const [taken] = await db
    .update(operationRequests)
    .set({ result: { ...rest, [secret.field]: 'shown' }, updatedAt: now() })
    .where(
      and(
        eq(operationRequests.id, id),
        sql`${operationRequests.result} -> 'sealed' ->> ${secret.field} = ${sealed}`,
      ),
    )
    .returning({ id: operationRequests.id });
  if (!taken) return fail(secret.gone, 410);
  const value = configuration.open(sealed, secret.binding);
  await audit(actor, secret.audit, 'success', id);
  return { ok: true as const, data: { value, review: row.review as Record<string, unknown> } };
}

/** A new or rotated service token (and its webhook secret), shown once to the admin who asked for it. */
export async function takeTokenSecret(ctx: EngineContext, { actor, id }: { actor: EngineActor; id: string }) {
  const { findRequest } = ctx;
  const row = await findRequest(id);
  const type = row?.type === 'serviceTokenRotate' ? 'serviceTokenRotate' : 'serviceTokenCreate';
  const taken = await takeSealedSecret(ctx, actor, id, {
    type,
    field: 'tokenSecret',
    binding: `service-token:${id}`,
    audit: 'serviceToken.reveal',
    notYours: 'Only the admin who asked for this token sees it.',
    gone: 'The token was shown once and is not kept. Rotate it if it was lost.',
  });
  if (!taken.ok) return taken;
  const [token, webhookSecret] = taken.data.value.split('\n');
  return { ok: true as const, data: { token: token ?? '', webhookSecret: webhookSecret || null } };
}
