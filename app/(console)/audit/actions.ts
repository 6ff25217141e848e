'use server';
import { type ChainVerdict, verifyAuditChain } from '@/lib/server/audit';
import { type ActionResult, audit, authorize } from '@/lib/server/guard';
import { getDb } from '@/lib/server/runtime';

export async function verifyAuditChainAction(): Promise<ActionResult<ChainVerdict>> {
  const authz = await authorize('audit.view', 'audit_log');
  if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
  const verdict = await verifyAuditChain(await getDb());
  await audit(authz.actor, 'audit.verify', verdict.ok ? 'success' : 'broken', {
    input: verdict.ok ? { entries: verdict.entries } : { brokenAt: verdict.brokenAt },
  });
  return { ok: true, data: verdict };
}
