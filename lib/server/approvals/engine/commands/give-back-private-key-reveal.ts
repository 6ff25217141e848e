import 'server-only';
// A private key reveal the service answered without a key waits again, within its time.
import { and, eq, sql } from 'drizzle-orm';
import type { ConfigurationResult } from '@/lib/approvals/configuration';
import { operationRequests } from '@/lib/db/schema';
import type { EngineContext } from '../context';

/** The service returned no key after all: the reveal waits again (within its time). */
export async function giveBackPrivateKeyReveal(ctx: EngineContext, { id }: { id: string }) {
  const { db, now, findRequest } = ctx;
  const row = await findRequest(id);
  const stored = (row?.result ?? null) as ConfigurationResult | null;
  if (row?.type !== 'privateKeyReveal' || !stored) return;
  await db
    .update(operationRequests)
    .set({ result: { ...stored, privateKey: 'waiting' }, updatedAt: now() })
    .where(and(eq(operationRequests.id, id), sql`${operationRequests.result} ->> 'privateKey' = 'shown'`));
}
