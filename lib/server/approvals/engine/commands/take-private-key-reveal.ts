import 'server-only';
// The approved reveal of a private key, taken once by the admin who asked for it.
import { and, eq, sql } from 'drizzle-orm';
import type { ConfigurationResult } from '@/lib/approvals/configuration';
import { operationRequests } from '@/lib/db/schema';
import type { EngineContext } from '../context';
import { type EngineActor, fail } from '../types';

/**
 * The approved reveal of a private key, taken by the admin who asked for it: once, before `revealUntil`, for
 * the address it names. Taking it marks the key shown; `giveBackPrivateKeyReveal` undoes that when the service
 * then returned no key.
 */
export async function takePrivateKeyReveal(
  ctx: EngineContext,
  { actor, id, target }: { actor: EngineActor; id: string; target: { walletId: string; addressId: string } },
) {
  const { db, now, audit, findRequest } = ctx;
  const row = await findRequest(id);
  const stored = (row?.result ?? null) as ConfigurationResult | null;
  if (row?.type !== 'privateKeyReveal' || !stored) return fail('No approved request to show this key.', 404);
  if (row.requesterId !== actor.id) {
    await audit(actor, 'privateKey.reveal', 'denied', id);
    return fail('Only the admin who asked for this key sees it.', 403);
  }
  if (stored.walletId !== target.walletId || stored.addressId !== target.addressId)
    return fail('That request was approved for another address.', 403);
  if (row.status !== 'SUCCESS' || stored.privateKey !== 'waiting')
    return fail('The private key was shown once. Ask again if it is needed.', 410);
  if (!stored.revealUntil || now().getTime() >= Date.parse(stored.revealUntil))
    return fail('The time to see this private key has passed. Ask again if it is needed.', 410);
  const [taken] = await db
    .update(operationRequests)
    .set({ result: { ...stored, privateKey: 'shown' }, updatedAt: now() })
    .where(and(eq(operationRequests.id, id), sql`${operationRequests.result} ->> 'privateKey' = 'waiting'`))
    .returning({ id: operationRequests.id });
  if (!taken) return fail('The private key was shown once. Ask again if it is needed.', 410);
  return { ok: true as const, data: null };
}
