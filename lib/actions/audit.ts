'use server';
import { z } from 'zod';
import { defineAction, ok } from '@/lib/actions/define-action';
import { type ChainVerdict, verifyAuditChain } from '@/lib/server/audit';
import { audit } from '@/lib/server/guard';
import { currentDb } from '@/lib/server/services';

// The entry says "broken" rather than "failed" when the chain does not verify, so it is written here.
const verifyChain = defineAction({
  permission: 'audit.view',
  resource: 'audit_log',
  input: z.undefined(),
  context: 'verify audit chain',
  run: async ({ actor }) => {
    const verdict = await verifyAuditChain(await currentDb());
    await audit(actor, 'audit.verify', verdict.ok ? 'success' : 'broken', {
      input: verdict.ok ? { entries: verdict.entries } : { brokenAt: verdict.brokenAt },
    });
    return ok<ChainVerdict>(verdict);
  },
});

/** Recomputes the audit log's hash chain from the first entry and says where it breaks, if it does. */
export async function verifyAuditChainAction() {
  return verifyChain(undefined);
}
