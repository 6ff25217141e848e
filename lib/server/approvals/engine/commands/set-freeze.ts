import 'server-only';
// The emergency freeze, set or lifted: lifting it sends what was approved meanwhile.
import { consoleSettings } from '@/lib/db/schema';
import type { EngineContext } from '../context';
import { submitAllApproved } from '../submission/send';
import { type EngineActor, FREEZE_KEY } from '../types';

export async function setFreeze(
  ctx: EngineContext,
  { actor, enabled }: { actor: EngineActor; enabled: boolean },
) {
  const { db, now, audit, alerts } = ctx;
  await db
    .insert(consoleSettings)
    .values({ key: FREEZE_KEY, enabled, updatedBy: actor.email, updatedAt: now() })
    .onConflictDoUpdate({
      target: consoleSettings.key,
      set: { enabled, updatedBy: actor.email, updatedAt: now() },
    });
  await audit(actor, 'freeze.toggle', 'success', 'console', { enabled });
  await alerts.configurationChanged({
    key: `freeze:${enabled}:${now().toISOString()}`,
    summary: enabled ? 'Emergency freeze set' : 'Emergency freeze lifted',
    by: actor.email,
    path: '/approvals',
  });
  // Thawing sends what was approved meanwhile.
  const submitted = enabled ? 0 : await submitAllApproved(ctx);
  return { ok: true as const, data: { enabled, submitted } };
}
